import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../errors.js';
import { ConcurrencyGate } from '../lib/concurrencyGate.js';

/**
 * scrypt runs on libuv's thread pool (4 threads), which file reads and writes share: at most 2 hashes
 * run at once, 128 more wait their turn, and beyond that a request gets 503 with Retry-After instead of
 * stalling every download behind a queue of hashes. One gate per process, like the thread pool it guards.
 */
export const passwordHashGate = new ConcurrencyGate({
  max: 2,
  queue: 128,
  onFull: () =>
    new AppError('UNAVAILABLE', 'the server is busy checking passwords, try again in a moment', {
      headers: { 'Retry-After': '1' },
    }),
});

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return passwordHashGate.run(
    () =>
      new Promise((resolve, reject) =>
        scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** `scrypt$N$r$p$salt$hash`, all base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Migration-only: a share imported from CloudPaste without a plain copy of its password keeps CloudPaste's
 * unsalted SHA-256 as `sha256$<hex>`. It is checked once per right password and then replaced by scrypt
 * (see needsRehash); nothing in Clipnest ever writes this form.
 */
export const LEGACY_SHA256_PREFIX = 'sha256$';

/** true for a stored hash that must be replaced by hashPassword() after the next right password. */
export function needsRehash(stored: string): boolean {
  return stored.startsWith(LEGACY_SHA256_PREFIX);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (needsRehash(stored)) {
    const expected = Buffer.from(stored.slice(LEGACY_SHA256_PREFIX.length), 'hex');
    const actual = createHash('sha256').update(password, 'utf8').digest();
    return expected.length === actual.length && timingSafeEqual(actual, expected);
  }
  const [algo, n, r, p, saltText, hashText] = stored.split('$');
  if (algo !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** A random token with at least `bytes`*8 bits of entropy, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison (lengths are hashed first so they do not leak). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** Hashes a dummy password so that a login for an unknown user takes as long as a real one. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('clipnest-dummy-password');
  await verifyPassword(password, await dummyHash);
}
