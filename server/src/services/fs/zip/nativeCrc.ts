// zip-stream computes CRC-32 with the `crc-32` package (pure JavaScript, ~400 MB/s here), which caps a zip
// download below what the disk and the socket carry. Node's zlib.crc32 (native, Node ≥ 20.15) computes the same
// checksum (same polynomial, same seed chaining) several times faster, so `crc-32`'s `buf` is pointed at it once,
// before the first archive. Signed results as `crc-32` answers them; callers apply `>>> 0`.
import { crc32 as nativeCrc32 } from 'node:zlib';
import crc32 from 'crc-32';

export function useNativeCrc32(): void {
  const target = crc32 as { buf: (data: Uint8Array | number[], seed?: number) => number };
  target.buf = (data, seed = 0) =>
    nativeCrc32(data instanceof Uint8Array ? data : Uint8Array.from(data), seed >>> 0) | 0;
}
