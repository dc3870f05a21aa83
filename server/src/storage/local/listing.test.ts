// list() pages: the names of a folder are read once per listing and reused by its next pages only while
// the folder is unchanged; every page stats its own names.
import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Entry } from '../types.js';
import { LocalDriver } from './driver.js';

describe('LocalDriver.list pages', () => {
  let root: string;
  let driver: LocalDriver;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'local-list-'));
    driver = new LocalDriver({ root });
    for (let i = 0; i < 25; i++) writeFileSync(path.join(root, `f${String(i).padStart(2, '0')}`), `${i}`);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function all(between?: () => void): Promise<Entry[]> {
    const out: Entry[] = [];
    let cursor: string | undefined;
    let first = true;
    do {
      const page = await driver.list('', { limit: 10, ...(cursor ? { cursor } : {}) });
      out.push(...page.entries);
      cursor = page.cursor;
      if (first) between?.();
      first = false;
    } while (cursor);
    return out;
  }

  it('lists every name once, with sizes', async () => {
    const entries = await all();
    expect(entries.map((e) => e.name)).toEqual(Array.from({ length: 25 }, (_, i) => `f${String(i).padStart(2, '0')}`));
    expect(entries[12]?.size).toBe(2);
  });

  it('sees a name added or removed between pages', async () => {
    const entries = await all(() => {
      writeFileSync(path.join(root, 'f99'), 'new');
      unlinkSync(path.join(root, 'f20'));
      // A change in the same clock tick as the first page's read still changes the folder's ctime/mtime stamp
      // on most file systems; make sure of it here.
      utimesSync(root, new Date(), new Date(Date.now() + 5000));
    });
    const names = entries.map((e) => e.name);
    expect(names).toContain('f99');
    expect(names).not.toContain('f20');
    expect(new Set(names).size).toBe(names.length);
  });
});
