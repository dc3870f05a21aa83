import { describe, expect, it } from 'vitest';
import { ascendingParts, checkPartNumber } from './multipartParts.js';
import { isStorageError } from './types.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return isStorageError(err) ? `${err.code}: ${err.message}` : String(err);
  }
  return 'ok';
}

describe('multipart part checks', () => {
  it('part numbers are integers in 1..max', () => {
    expect(codeOf(() => checkPartNumber('a', 1, 3))).toBe('ok');
    expect(codeOf(() => checkPartNumber('a', 3, 3))).toBe('ok');
    for (const n of [0, 4, 1.5, Number.NaN]) {
      expect(codeOf(() => checkPartNumber('a', n, 3))).toBe('invalid_part: part number must be 1..3');
    }
  });

  it('parts must ascend; each is checked as it is reached', () => {
    const parts = [{ partNumber: 1 }, { partNumber: 3 }, { partNumber: 3 }];
    const seen: number[] = [];
    const run = () => {
      for (const p of ascendingParts(parts, 'a')) seen.push(p.partNumber);
    };
    expect(codeOf(run)).toBe('invalid_part: part numbers must ascend');
    expect(seen).toEqual([1, 3]);
    expect([...ascendingParts([{ partNumber: 2 }, { partNumber: 7 }], 'a')].map((p) => p.partNumber)).toEqual([2, 7]);
    expect(codeOf(() => [...ascendingParts([{ partNumber: 0 }], 'a')])).toBe('invalid_part: part numbers must ascend');
  });
});
