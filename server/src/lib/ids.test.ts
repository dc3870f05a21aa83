import { describe, expect, it } from 'vitest';
import { isWellFormedId, newId, newSortableId, randomBase64url } from './ids.js';

describe('ids from the pooled CSPRNG bytes', () => {
  it('are well formed and never repeat, across many refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = newId();
      expect(id).toHaveLength(16);
      seen.add(id);
    }
    expect(seen.size).toBe(20_000);
    expect([...seen].every(isWellFormedId)).toBe(true);
  });

  it('hands out as many bytes as asked, whatever is left in the pool', () => {
    for (const bytes of [1, 6, 12, 100, 3072])
      expect(Buffer.from(randomBase64url(bytes), 'base64url')).toHaveLength(bytes);
  });
});

describe('newSortableId', () => {
  it('sorts by creation time, is a well-formed resource id, and differs within one millisecond', () => {
    const early = newSortableId(Date.UTC(2026, 0, 1));
    const late = newSortableId(Date.UTC(2026, 0, 1) + 1);
    expect(early < late).toBe(true);
    expect(isWellFormedId(early)).toBe(true);
    expect(early).toHaveLength(21);
    const same = new Set(Array.from({ length: 1000 }, () => newSortableId(1_800_000_000_000)));
    expect(same.size).toBe(1000);
  });
});
