import { describe, expect, it } from 'vitest';
import { parseRecent, pushRecent } from './recentSearches';

describe('recent searches', () => {
  it('puts the newest first, once (case-insensitively), and keeps a few', () => {
    expect(pushRecent(['b', 'a'], ' A ')).toEqual(['A', 'b']);
    expect(pushRecent(['a'], '  ')).toEqual(['a']);
    expect(pushRecent(['c', 'b'], 'a', 2)).toEqual(['a', 'c']);
  });

  it('reads back only strings', () => {
    expect(parseRecent('oops')).toEqual([]);
    expect(parseRecent('["x", 1, null]')).toEqual(['x']);
  });
});
