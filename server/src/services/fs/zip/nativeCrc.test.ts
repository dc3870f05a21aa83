import { crc32 as nativeCrc32 } from 'node:zlib';
import crc32 from 'crc-32';
import { describe, expect, it } from 'vitest';
import { useNativeCrc32 } from './nativeCrc.js';

describe('useNativeCrc32', () => {
  it('gives crc-32 the same answers, chained or not, through zlib', () => {
    const data = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 131) & 0xff);
    const before = [
      crc32.buf(data),
      crc32.buf(data.subarray(0, 10)),
      crc32.buf(data.subarray(10), crc32.buf(data.subarray(0, 10))),
    ];
    useNativeCrc32();
    const after = [
      crc32.buf(data),
      crc32.buf(data.subarray(0, 10)),
      crc32.buf(data.subarray(10), crc32.buf(data.subarray(0, 10))),
    ];
    expect(after).toEqual(before);
    expect(before[0]! >>> 0).toBe(nativeCrc32(data));
    expect(before[2]).toBe(before[0]);
  });
});
