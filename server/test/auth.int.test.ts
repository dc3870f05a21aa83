import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  dbTargets,
  expectEnvelope,
  snapshotTable,
  startTestServer,
  type TestServer,
} from './support/harness.js';

describe.each(dbTargets)('admin auth on %s', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('logs in with the right password and returns a long random token', async () => {
    const res = await server.call<{ token: string; username: string; expires_at: string }>('POST', '/api/admin/login', {
      body: ADMIN,
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    expect(res.body.data?.token.length).toBeGreaterThanOrEqual(43); // ≥ 256 bits base64url
    expect(res.body.data?.username).toBe(ADMIN.username);
    expect(Date.parse(res.body.data?.expires_at ?? '')).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  it('stores only a hash of the token', async () => {
    const token = await server.login();
    const rows = await snapshotTable(server, 'admin_tokens');
    expect(rows.join()).not.toContain(token);
  });

  it('refuses a wrong password and a missing user with the same message, creating no token', async () => {
    const before = await snapshotTable(server, 'admin_tokens');
    for (const body of [
      { username: ADMIN.username, password: 'wrong-password' },
      { username: 'nobody', password: 'wrong-password' },
    ]) {
      const res = await server.call('POST', '/api/admin/login', { body, headers: { 'x-forwarded-for': '10.0.0.9' } });
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 401);
      expect(res.body.message).toBe('invalid username or password');
    }
    expect(await snapshotTable(server, 'admin_tokens')).toEqual(before);
  });

  it('validates the login body', async () => {
    const missing = await server.call('POST', '/api/admin/login', { body: { username: 'admin' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('password');
    const extra = await server.call('POST', '/api/admin/login', { body: { ...ADMIN, role: 'root' } });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('role');
  });

  it('verifies a token, rejects unknown and malformed ones', async () => {
    const token = await server.login();
    const good = await server.call<{ valid: boolean; username: string }>('GET', '/api/test/admin-token', { token });
    expect(good.status).toBe(200);
    expect(good.body.data).toMatchObject({ valid: true, username: ADMIN.username });

    const unknown = await server.call('GET', '/api/test/admin-token', { token: 'x'.repeat(43) });
    expect(unknown.status).toBe(401);
    expectEnvelope(unknown.body, 401);
    const none = await server.call('GET', '/api/test/admin-token');
    expect(none.status).toBe(401);
    const malformed = await server.call('GET', '/api/test/admin-token', { headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
    expect(malformed.body.message).toMatch(/malformed Authorization header/);
  });

  it('kills the token on logout', async () => {
    const token = await server.login();
    const out = await server.call('POST', '/api/admin/logout', { token });
    expect(out.status).toBe(200);
    const after = await server.call('GET', '/api/test/admin-token', { token });
    expect(after.status).toBe(401);
    expect((await server.call('POST', '/api/admin/logout', { token })).status).toBe(401);
  });

  it('expires tokens after ADMIN_TOKEN_TTL_DAYS', async () => {
    const token = await server.login();
    server.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    try {
      const res = await server.call('GET', '/api/test/admin-token', { token });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('admin session expired, please log in again');
      expect(await server.built.services.auth.sweepExpiredTokens()).toBeGreaterThan(0);
    } finally {
      server.clock.advance(-(7 * 24 * 3600 * 1000 + 1000));
    }
  });

  it('rate-limits failed logins per client, whatever the username, with Retry-After', async () => {
    // A right login clears the client's count (earlier tests failed some).
    await server.login();
    for (let i = 0; i < 10; i++) {
      const body = { username: `victim-${i}`, password: 'wrong-password' };
      expect((await server.call('POST', '/api/admin/login', { body })).status).toBe(401);
    }
    const blocked = await server.call('POST', '/api/admin/login', { body: ADMIN });
    expect(blocked.status).toBe(429);
    expectEnvelope(blocked.body, 429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The window ends: the owner is never locked out for good (more in secretLimits.int.test.ts).
    server.clock.advance(15 * 60 * 1000 + 1000);
    try {
      expect((await server.call('POST', '/api/admin/login', { body: ADMIN })).status).toBe(200);
    } finally {
      server.clock.advance(-(15 * 60 * 1000 + 1000));
    }
  });
});

describe.each(dbTargets)('change-password on %s', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const token = await server.login();
    const before = await snapshotTable(server, 'admins');
    const res = await server.call('POST', '/api/admin/change-password', {
      token,
      body: { currentPassword: 'not-the-password', newPassword: 'another-password-1' },
    });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, 401);
    expect(await snapshotTable(server, 'admins')).toEqual(before);
    expect((await server.call('GET', '/api/test/admin-token', { token })).status).toBe(200);
  });

  it('applies the spec §5 rules', async () => {
    const token = await server.login();
    const before = await snapshotTable(server, 'admins');
    const cases = [
      { currentPassword: ADMIN.password },
      { currentPassword: ADMIN.password, newPassword: ADMIN.password },
      { currentPassword: ADMIN.password, newPassword: 'short' },
      { currentPassword: ADMIN.password, newUsername: 'a b' },
      { newPassword: 'another-password-1' },
    ];
    for (const body of cases) {
      const res = await server.call('POST', '/api/admin/change-password', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectEnvelope(res.body, 400);
    }
    expect(await snapshotTable(server, 'admins')).toEqual(before);
  });

  it('needs the admin', async () => {
    const res = await server.call('POST', '/api/admin/change-password', {
      body: { currentPassword: ADMIN.password, newPassword: 'another-password-1' },
    });
    expect(res.status).toBe(401);
  });

  it('changes username and password and revokes every other token of the admin', async () => {
    const first = await server.login();
    const second = await server.login();
    const res = await server.call<{ username: string }>('POST', '/api/admin/change-password', {
      token: first,
      body: { currentPassword: ADMIN.password, newPassword: 'another-password-1', newUsername: 'root-admin' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data?.username).toBe('root-admin');
    expect((await server.call('GET', '/api/test/admin-token', { token: second })).status).toBe(401);
    // The sign-in that made the change goes on, under the new name.
    const kept = await server.call<{ username: string }>('GET', '/api/test/admin-token', { token: first });
    expect(kept.status).toBe(200);
    expect(kept.body.data?.username).toBe('root-admin');
    expect((await server.call('POST', '/api/admin/login', { body: ADMIN })).status).toBe(401);
    const again = await server.login('root-admin', 'another-password-1');
    expect((await server.call('GET', '/api/test/admin-token', { token: again })).status).toBe(200);
  });
});
