import { describe, expect, it } from 'vitest';
import { changedSince } from './searchService.js';

const file = (rel_path: string, size = 1, last_modified: string | null = '2026-01-01T00:00:00.000Z') => ({
  rel_path,
  is_dir: 0,
  size,
  last_modified,
});
const dir = (rel_path: string, last_modified: string | null = null) => ({
  rel_path,
  is_dir: 1,
  size: 0,
  last_modified,
});

describe('changedSince tells a folder changed on storage from one that did not', () => {
  it('sees nothing when names, kinds, sizes and file times are the same, in any order', () => {
    expect(changedSince([file('a'), dir('b')], [dir('b'), file('a')])).toBe(false);
    expect(changedSince([], [])).toBe(false);
  });

  it('ignores a folder’s own time (S3 has none; its content is compared when it is listed)', () => {
    expect(changedSince([dir('b', '2026-01-01T00:00:00.000Z')], [dir('b', '2026-02-01T00:00:00.000Z')])).toBe(false);
  });

  it('sees a name added or gone, a kind changed, a file’s size or time changed', () => {
    expect(changedSince([file('a')], [file('a'), file('new')])).toBe(true);
    expect(changedSince([file('a'), file('gone')], [file('a')])).toBe(true);
    expect(changedSince([file('a'), file('gone')], [file('a'), file('other')])).toBe(true);
    expect(changedSince([file('a')], [dir('a')])).toBe(true);
    expect(changedSince([file('a', 1)], [file('a', 2)])).toBe(true);
    expect(changedSince([file('a', 1, '2026-01-01T00:00:00.000Z')], [file('a', 1, '2026-01-01T00:00:01.000Z')])).toBe(
      true,
    );
  });
});
