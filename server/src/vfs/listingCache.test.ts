import { describe, expect, it } from 'vitest';
import type { Entry } from '../storage/types.js';
import { entryBytes, ListingCache } from './listingCache.js';

const file = (name: string): Entry => ({ path: `dir/${name}`, name, isDir: false, size: 1, etag: '"e"' });
const folderOf = (count: number, nameLength = 8) =>
  Array.from({ length: count }, (_, i) => file(String(i).padStart(nameLength, '0')));

describe('ListingCache', () => {
  it('keeps listings within its byte budget, dropping the oldest first', () => {
    const small = folderOf(100);
    const budget = entryBytes(small[0]!) * 250;
    const cache = new ListingCache(() => 0, budget);
    cache.set('m', 'a', small, 60);
    cache.set('m', 'b', folderOf(100), 60);
    expect(cache.size).toBe(2);
    cache.set('m', 'c', folderOf(100), 60);
    expect(cache.get('m', 'a')).toBeUndefined();
    expect(cache.get('m', 'b')).toBeDefined();
    expect(cache.get('m', 'c')).toBeDefined();
    expect(cache.keptBytes).toBeLessThanOrEqual(budget);
  });

  it('counts long names for what they hold: fewer entries fit when names are long', () => {
    const short = folderOf(100, 8);
    const long = folderOf(100, 200);
    const budget = entryBytes(short[0]!) * 150;
    const cache = new ListingCache(() => 0, budget);
    cache.set('m', 'short', short, 60);
    expect(cache.get('m', 'short')).toBe(short);
    cache.set('m', 'long', long, 60); // over the budget on its own: not kept, nothing else dropped for it
    expect(cache.get('m', 'long')).toBeUndefined();
    expect(cache.get('m', 'short')).toBe(short);
  });

  it('gives the bytes back when a listing is invalidated, expires or is cleared', () => {
    let now = 0;
    const cache = new ListingCache(() => now);
    cache.set('m', 'dir', folderOf(10), 1);
    cache.set('m', 'other', folderOf(10), 60);
    cache.invalidate('m', 'other/x');
    expect(cache.get('m', 'other')).toBeUndefined();
    now = 2000;
    expect(cache.get('m', 'dir')).toBeUndefined();
    expect(cache.keptBytes).toBe(0);
    cache.set('m', 'dir', folderOf(10), 60);
    cache.clear();
    expect(cache.keptBytes).toBe(0);
  });
});
