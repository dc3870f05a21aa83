import { describe, expect, it } from 'vitest';
import { ListingSnapshots } from './pageByName.js';
import type { Entry } from './types.js';

const file = (name: string): Entry => ({ path: name, name, isDir: false, size: 1 });
const folder = (count: number) => Array.from({ length: count }, (_, i) => file(`f-${String(i).padStart(5, '0')}`));

describe('pages of a folder listed whole', () => {
  it('sorts by name and cuts the page after the cursor', async () => {
    const listWhole = async () => [file('c'), file('a'), file('b')];
    const page = await new ListingSnapshots().page('d', { limit: 2 }, listWhole);
    expect(page.entries.map((e) => e.name)).toEqual(['a', 'b']);
    expect((await new ListingSnapshots().page('d', { limit: 2, cursor: page.cursor }, listWhole)).entries).toEqual([
      file('c'),
    ]);
  });
});

describe('ListingSnapshots', () => {
  it('asks the server once per walk through the pages, and again for a new walk or after a few seconds', async () => {
    let now = 0;
    let asked = 0;
    const snapshots = new ListingSnapshots(() => now);
    const listWhole = async () => {
      asked++;
      return folder(2500).reverse();
    };
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await snapshots.page('dir', { limit: 1000, ...(cursor ? { cursor } : {}) }, listWhole);
      names.push(...page.entries.map((e) => e.name));
      cursor = page.cursor;
    } while (cursor);
    expect(asked).toBe(1);
    expect(names).toEqual(folder(2500).map((e) => e.name));
    await snapshots.page('dir', { limit: 1000 }, listWhole); // a new walk starts with a fresh listing
    expect(asked).toBe(2);
    now += 10_000;
    await snapshots.page('dir', { limit: 1000, cursor: 'f-00999' }, listWhole); // too old to reuse
    expect(asked).toBe(3);
    await snapshots.page('other', { limit: 1000, cursor: 'f-00999' }, listWhole); // another folder: its own listing
    expect(asked).toBe(4);
  });

  it('keeps nothing when the listing fails', async () => {
    const snapshots = new ListingSnapshots();
    await expect(
      snapshots.page('dir', {}, async () => {
        throw new Error('server down');
      }),
    ).rejects.toThrow('server down');
    let asked = 0;
    await snapshots.page('dir', { cursor: 'x' }, async () => {
      asked++;
      return [];
    });
    expect(asked).toBe(1);
  });
});
