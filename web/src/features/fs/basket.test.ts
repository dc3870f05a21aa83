import type { FsEntryView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { addEntries, BASKET_LARGE_BYTES, BASKET_VERY_LARGE_BYTES, parseBasket, sizeLevel, totalSize } from './basket';

const file = (path: string, size = 1): FsEntryView => ({
  name: path.split('/').pop()!,
  path,
  isDirectory: false,
  size,
});

describe('basket', () => {
  it('adds files once, skips folders, and records the source folder', () => {
    const first = addEntries([], [file('/a/x.txt', 3), { ...file('/a/dir'), isDirectory: true }], 'T');
    expect(first.added).toBe(1);
    expect(first.items).toEqual([{ path: '/a/x.txt', name: 'x.txt', size: 3, folder: '/a', addedAt: 'T' }]);
    const again = addEntries(first.items, [file('/a/x.txt'), file('/b/y.txt', 4)]);
    expect(again.added).toBe(1);
    expect(totalSize(again.items)).toBe(7);
  });

  it('reads back only well-formed items', () => {
    expect(parseBasket('not json')).toEqual([]);
    expect(parseBasket('{"a":1}')).toEqual([]);
    expect(parseBasket('[{"path":"/a","name":"a","size":1,"folder":"/","addedAt":"T"},{"path":1}]')).toHaveLength(1);
  });

  it('names the size levels by the thresholds', () => {
    expect(sizeLevel(BASKET_LARGE_BYTES - 1)).toBe('normal');
    expect(sizeLevel(BASKET_LARGE_BYTES)).toBe('large');
    expect(sizeLevel(BASKET_VERY_LARGE_BYTES)).toBe('veryLarge');
  });
});
