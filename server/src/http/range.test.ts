import { describe, expect, it } from 'vitest';
import { contentDisposition } from './contentDisposition.js';
import { etagMatches, ifRangeAllows, parseRange } from './range.js';

describe('parseRange', () => {
  it('reads first byte, last byte, open end, suffix', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=9-9', 10)).toEqual({ start: 9, end: 9 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=2-100', 10)).toEqual({ start: 2, end: 9 });
  });
  it('flags unsatisfiable ranges', () => {
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
  });
  it('ignores malformed and multi ranges', () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange('bytes=5-2', 10)).toBeUndefined();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
    expect(parseRange('bytes=-', 10)).toBeUndefined();
    expect(parseRange('bytes=99999999999999999999-', 10)).toBeUndefined();
  });
});

describe('conditional helpers', () => {
  it('matches etags', () => {
    expect(etagMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagMatches('W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"c"', '"b"')).toBe(false);
    expect(ifRangeAllows('"b"', '"b"', undefined)).toBe(true);
    expect(ifRangeAllows('"c"', '"b"', undefined)).toBe(false);
  });
});

describe('contentDisposition', () => {
  it('encodes unicode names per RFC 5987 with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'résumé 报告.pdf')).toBe(
      `attachment; filename="resume .pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%8A%A5%E5%91%8A.pdf`,
    );
    expect(contentDisposition('inline', 'a"b;c\r\n.txt')).toBe(
      `inline; filename="a_b_c.txt"; filename*=UTF-8''a%22b%3Bc.txt`,
    );
    expect(contentDisposition('attachment', '../x/y')).toContain('filename=".._x_y"');
  });
});
