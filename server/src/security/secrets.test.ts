import { describe, expect, it } from 'vitest';
import { SecretCipher } from './cipher.js';
import { AppError } from '../errors.js';
import { hashPassword, passwordHashGate, randomToken, safeEqual, verifyPassword } from './secrets.js';

describe('password hashing', () => {
  it('uses salted scrypt and verifies', async () => {
    const a = await hashPassword('hunter2-hunter2');
    const b = await hashPassword('hunter2-hunter2');
    expect(a).toMatch(/^scrypt\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('hunter2-hunter2', a)).toBe(true);
    expect(await verifyPassword('hunter3-hunter3', a)).toBe(false);
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });
});

describe('hash budget', () => {
  it('runs at most 2 hashes at once, queues 128, and answers 503 with Retry-After beyond', async () => {
    // A stored hash with a tiny cost factor: verifying it is cheap, but it goes through the same gate.
    const cheap = ['scrypt', 2, 1, 1, 'c2FsdA', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'].join('$');
    const checks = Array.from({ length: 2 + 128 + 3 }, () =>
      verifyPassword('x', cheap).then(
        () => 'done',
        (error: unknown) => error,
      ),
    );
    expect(passwordHashGate.active).toBe(2);
    expect(passwordHashGate.queued).toBe(128);
    const results = await Promise.all(checks);
    expect(results.filter((r) => r === 'done')).toHaveLength(130);
    const refused = results.filter((r): r is AppError => r instanceof AppError);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.status).toBe(503);
    expect(refused[0]?.headers).toEqual({ 'Retry-After': '1' });
    expect(passwordHashGate.active).toBe(0);
  });
});

describe('tokens and comparison', () => {
  it('makes long distinct tokens', () => {
    const t = randomToken(32);
    expect(t.length).toBe(43);
    expect(randomToken(32)).not.toBe(t);
  });
  it('compares in constant time regardless of length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('SecretCipher', () => {
  it('round-trips and detects tampering or a wrong key', () => {
    const cipher = new SecretCipher('a-very-secret-key-123');
    const sealed = cipher.encrypt('s3-secret');
    expect(sealed).not.toContain('s3-secret');
    expect(cipher.decrypt(sealed)).toBe('s3-secret');
    expect(() => new SecretCipher('another-key-4567890').decrypt(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow();
  });
});
