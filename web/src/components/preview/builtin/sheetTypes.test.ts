import { describe, expect, it } from 'vitest';
import { toSheets } from './sheetTypes';

describe('toSheets', () => {
  it('copies only strings out of the worker answer', () => {
    const answer = [{ name: 'S1', totalRows: 5, rows: [['a', 1, null], { length: 2 }], extra: 'x' }];
    expect(toSheets(answer)).toEqual([{ name: 'S1', totalRows: 5, loaded: true, rows: [['a', '', ''], []] }]);
  });
  it('keeps a sheet not parsed yet as not loaded', () => {
    expect(toSheets([{ name: 'S2', totalRows: 0, rows: [], loaded: false }])[0]?.loaded).toBe(false);
  });
  it('refuses another shape', () => {
    expect(() => toSheets({})).toThrow();
    expect(() => toSheets([{ name: 1, rows: [], totalRows: 0 }])).toThrow();
  });
});
