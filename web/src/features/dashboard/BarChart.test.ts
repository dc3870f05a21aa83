import { describe, expect, it } from 'vitest';
import { niceMax } from './BarChart';

describe('niceMax', () => {
  it('gives a round bound whose half is whole', () => {
    expect([0, 1, 2, 3, 4, 5, 9, 10, 11, 35, 41, 99, 101, 250].map(niceMax)).toEqual([
      2, 2, 2, 4, 4, 10, 10, 10, 20, 40, 50, 100, 200, 400,
    ]);
    for (const v of [3, 7, 13, 77, 1234]) expect(niceMax(v) / 2).toBe(Math.round(niceMax(v) / 2));
  });
});
