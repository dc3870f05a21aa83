import { describe, expect, it } from 'vitest';
import type { AdminPrincipal } from '../auth/principal.js';
import type { SecretAttemptLimiter } from '../services/auth/secretAttemptLimiter.js';
import { DavAuth } from './davAuth.js';

const admin: AdminPrincipal = { type: 'admin', adminId: 'a1', username: 'admin', tokenHash: '', expiresAt: '' };
const header = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A DavAuth whose password check takes a while and counts its calls, as the limiter's attempts do. */
function davAuth() {
  const calls = { checks: 0, attempts: 0 };
  const auth = new DavAuth({
    auth: {
      checkPassword: async (user, password) => {
        calls.checks += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return user === 'admin' && password === 'right' ? admin : undefined;
      },
    },
    apiKeys: { findKey: async () => undefined, usable: async () => Promise.reject(new Error('no keys here')) },
    limiter: {
      attempt: async <T>(_attempt: unknown, check: () => Promise<T>) => {
        calls.attempts += 1;
        return check();
      },
    } as unknown as SecretAttemptLimiter,
    clock: { now: () => new Date() },
  });
  return { auth, calls };
}

describe('WebDAV Basic auth', () => {
  it('checks a header once for all of a client’s requests that arrive together, and remembers it', async () => {
    const { auth, calls } = davAuth();
    const all = await Promise.all(Array.from({ length: 100 }, () => auth.authenticate(header('admin', 'right'), 'c1')));
    expect(all.every((p) => p.type === 'admin')).toBe(true);
    expect(calls).toEqual({ checks: 1, attempts: 1 });
    await auth.authenticate(header('admin', 'right'), 'c1');
    expect(calls.checks).toBe(1);
  });

  it('gives a wrong header the same 401 for every request waiting on its check', async () => {
    const { auth, calls } = davAuth();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => auth.authenticate(header('admin', 'wrong'), 'c1')),
    );
    expect(results.every((r) => r.status === 'rejected' && /invalid WebDAV credentials/.test(String(r.reason)))).toBe(
      true,
    );
    expect(calls.checks).toBe(1);
    // Not remembered: the next request is checked again.
    await expect(auth.authenticate(header('admin', 'wrong'), 'c1')).rejects.toThrow(/invalid/);
    expect(calls.checks).toBe(2);
  });

  it('checks the same header from two clients separately (each in its own budget)', async () => {
    const { auth, calls } = davAuth();
    await Promise.all([
      auth.authenticate(header('admin', 'right'), 'c1'),
      auth.authenticate(header('admin', 'right'), 'c2'),
    ]);
    expect(calls.attempts).toBe(2);
  });
});
