/**
 * The published test vectors of docs/encryption.md (inputs). Random bytes are taken from `seq(start, n)`:
 * n bytes start, start+1, … (mod 256), in the order the format draws them (link key, salt, then IV or
 * nonce prefix).
 */
import type { RandomSource } from './keys';

export function seq(start: number, length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (start + i) & 0xff);
}

/** Link key 00…1f, salt a0…af, IV/prefix b0…. */
export function vectorRandom(): RandomSource {
  const draws = [seq(0x00, 32), seq(0xa0, 16)];
  return (length) => {
    const next = draws.shift();
    if (next) {
      if (next.length !== length) throw new Error('unexpected draw');
      return next;
    }
    return seq(0xb0, length);
  };
}

export const PASTE_VECTOR = {
  plaintext: { content: '# Hello\n\nThe server never sees this.', remark: 'vector 1', type: 'markdown' as const },
  password: 'correct horse battery staple',
  iterations: 600_000,
};

/** "hello, world\n" (13 bytes) and a two-record file of 70 000 bytes (byte i = i mod 251). */
export const FILE_VECTOR = {
  small: { name: 'hello.txt', type: 'text/plain', data: new TextEncoder().encode('hello, world\n') },
  multi: {
    name: 'pattern.bin',
    type: 'application/octet-stream',
    data: Uint8Array.from({ length: 70_000 }, (_, i) => i % 251),
  },
};
