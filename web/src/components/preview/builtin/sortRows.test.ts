import { describe, expect, it } from 'vitest';
import { columnName, sortedOrder } from './sortRows';

describe('sortedOrder', () => {
  const rows = [
    ['b', '10'],
    ['a', '9'],
    ['', '100'],
    ['C', ''],
  ];
  it('keeps the file order without a sort', () => {
    expect(sortedOrder(rows, null)).toEqual([0, 1, 2, 3]);
  });
  it('sorts text by the locale and empty cells last', () => {
    expect(sortedOrder(rows, { column: 0, descending: false })).toEqual([1, 0, 3, 2]);
    expect(sortedOrder(rows, { column: 0, descending: true })).toEqual([3, 0, 1, 2]);
  });
  it('sorts numbers as numbers', () => {
    expect(sortedOrder(rows, { column: 1, descending: false })).toEqual([1, 0, 2, 3]);
  });
});

describe('columnName', () => {
  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
