import { Permission, type AdminSessionView, type LoginResult } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCodeAt } from '../src/security/totp.js';
import {
  ADMIN,
  dbTargets,
  expectEnvelope,
  snapshotTable,
  startTestServer,
  type TestServer,
} from './support/harness.js';
import { download } from './support/backups.js';
import { basicAuth } from './support/webdav.js';

/** Turns TOTP on for the admin; answers the secret and the recovery codes. */
async function enableTotp(server: TestServer, token: string) {
  const setup = await server.call<{ secret: string; otpauth_url: string }>('POST', '/api/admin/2fa/setup', { token });
  expect(setup.status).toBe(200);
  const secret = setup.body.data!.secret;
  const enable = await server.call<{ recovery_codes: string[] }>('POST', '/api/admin/2fa/enable', {
    token,
    body: { code: totpCodeAt(secret, server.clock.now().getTime()), password: ADMIN.password },
  });
  expect(enable.status, enable.body.message).toBe(200);
  // The code that confirmed it is spent: the next sign-in needs the next step's.
  server.clock.advance(30_000);
  return { secret, codes: enable.body.data!.recovery_codes };
}

const login = (server: TestServer, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  server.call<LoginResult>('POST', '/api/admin/login', { body: { ...ADMIN, ...extra }, headers });

describe.each(dbTargets)('TOTP two-factor sign-in on %s', (target) => {
  let server: TestServer;
  let token: string;
  let secret: string;
  let codes: string[];
  const now = () => server.clock.now().getTime();

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('hands out a secret and its otpauth URL, and enables only with a right code and the password', async () => {
    const status = await server.call<{ totp_enabled: boolean }>('GET', '/api/admin/2fa', { token });
    expect(status.body.data).toMatchObject({ totp_enabled: false, recovery_codes_left: 0, passkeys: 0 });
    const setup = await server.call<{ secret: string; otpauth_url: string }>('POST', '/api/admin/2fa/setup', { token });
    const pending = setup.body.data!.secret;
    expect(pending).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.data!.otpauth_url).toMatch(/^otpauth:\/\/totp\/.+:admin\?.*secret=/);

    const wrongCode = await server.call('POST', '/api/admin/2fa/enable', {
      token,
      body: { code: '000000', password: ADMIN.password },
    });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body.kind).toBe('totp_wrong');
    const wrongPassword = await server.call('POST', '/api/admin/2fa/enable', {
      token,
      body: { code: totpCodeAt(pending, now()), password: 'not-the-password' },
    });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.kind).toBe('password_wrong');
    const noPassword = await server.call('POST', '/api/admin/2fa/enable', { token, body: { code: '123456' } });
    expect(noPassword.status).toBe(400);
    // The session making these calls still works: a wrong code is not a bad token.
    expect((await server.call('GET', '/api/test/admin-token', { token })).status).toBe(200);
  });

  it('turns on with ten recovery codes, keeping the secret encrypted and the codes hashed', async () => {
    ({ secret, codes } = await enableTotp(server, token));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = JSON.stringify([
      await server.built.database.db.selectFrom('admin_second_factor').selectAll().execute(),
      await server.built.database.db.selectFrom('admin_recovery_codes').selectAll().execute(),
    ]);
    expect(stored).not.toContain(secret);
    for (const code of codes) expect(stored).not.toContain(code.replace('-', ''));
    const status = await server.call('GET', '/api/admin/2fa', { token });
    expect(status.body.data).toMatchObject({ totp_enabled: true, recovery_codes_left: 10 });
    const again = await server.call('POST', '/api/admin/2fa/setup', { token });
    expect(again.status).toBe(409);
  });

  it('answers totp_required without a code, and makes no token', async () => {
    const before = await snapshotTable(server, 'admin_tokens');
    const res = await login(server);
    expect(res.status).toBe(401);
    expectEnvelope(res.body, 401);
    expect(res.body.kind).toBe('totp_required');
    expect(res.body.data).toEqual({ methods: ['totp', 'recovery_code'] });
    expect(await snapshotTable(server, 'admin_tokens')).toEqual(before);
    // A wrong password is still just a wrong password (nothing says 2FA is on).
    const wrong = await server.call('POST', '/api/admin/login', {
      body: { username: ADMIN.username, password: 'nope-nope', totp: '123456' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.kind).toBe('unauthorized');
  });

  it('refuses a wrong code and one two steps away, accepts the current one and never the same one twice', async () => {
    const wrong = await login(server, { totp: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.kind).toBe('totp_wrong');
    expect((await login(server, { totp: totpCodeAt(secret, now() - 60_000) })).status).toBe(401);

    const code = totpCodeAt(secret, now());
    const ok = await login(server, { totp: code });
    expect(ok.status, ok.body.message).toBe(200);
    expect(ok.body.data!.token.length).toBeGreaterThanOrEqual(43);
    const replay = await login(server, { totp: code });
    expect(replay.status).toBe(401);
    expect(replay.body.kind).toBe('totp_wrong');
    // Still inside the ±1 window a step later, but that step was used: refused.
    server.clock.advance(30_000);
    expect((await login(server, { totp: code })).status).toBe(401);
    // The code of the step before the one accepted, though within the window, is refused too.
    expect((await login(server, { totp: totpCodeAt(secret, now() - 60_000) })).status).toBe(401);
    expect((await login(server, { totp: totpCodeAt(secret, now()) })).status).toBe(200);
    server.clock.advance(30_000);
  });

  it('takes a recovery code once, however it is typed', async () => {
    const first = codes[0]!;
    const ok = await login(server, { totp: first.toLowerCase().replace('-', ' ') });
    expect(ok.status, ok.body.message).toBe(200);
    const again = await login(server, { totp: first });
    expect(again.status).toBe(401);
    expect(again.body.kind).toBe('totp_wrong');
    const status = await server.call('GET', '/api/admin/2fa', { token });
    expect(status.body.data).toMatchObject({ recovery_codes_left: 9 });
    const sessions = await server.call<{ items: AdminSessionView[] }>('GET', '/api/admin/sessions', { token });
    expect(sessions.body.data!.items.map((s) => s.auth_method)).toContain('recovery_code');
  });

  it('renews the recovery codes for a code: the old ones stop working', async () => {
    const renewed = await server.call<{ recovery_codes: string[] }>('POST', '/api/admin/2fa/recovery-codes', {
      token,
      body: { code: totpCodeAt(secret, now()) },
    });
    expect(renewed.status).toBe(200);
    server.clock.advance(30_000);
    expect((await login(server, { totp: codes[1]! })).status).toBe(401);
    expect((await login(server, { totp: renewed.body.data!.recovery_codes[0]! })).status).toBe(200);
    codes = renewed.body.data!.recovery_codes.slice(1);
  });

  it('refuses the admin password over WebDAV and keeps API keys working', async () => {
    const key = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'dav-2fa', permissions: Permission.WEBDAV_READ, basic_path: '/' },
    });
    const dav = (authorization: string) =>
      fetch(`${server.url}/dav/`, { method: 'PROPFIND', headers: { authorization, depth: '0' } });
    const admin = await dav(basicAuth(ADMIN.username, ADMIN.password));
    expect(admin.status).toBe(401);
    expect(await admin.text()).toContain('two-factor sign-in is on');
    const withKey = await dav(basicAuth(key.body.data!.key, key.body.data!.key));
    expect(withKey.status).toBe(207);
  });

  it('turns off only with a code, after which the password alone signs in again', async () => {
    expect((await server.call('POST', '/api/admin/2fa/disable', { token, body: {} })).status).toBe(400);
    const wrong = await server.call('POST', '/api/admin/2fa/disable', { token, body: { code: '000000' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.kind).toBe('totp_wrong');
    expect((await login(server)).status).toBe(401);
    const off = await server.call('POST', '/api/admin/2fa/disable', { token, body: { code: codes[0]! } });
    expect(off.status, off.body.message).toBe(200);
    expect(off.body.data).toMatchObject({ totp_enabled: false, recovery_codes_left: 0 });
    expect((await login(server)).status).toBe(200);
    const dav = await fetch(`${server.url}/dav/`, {
      method: 'PROPFIND',
      headers: { authorization: basicAuth(ADMIN.username, ADMIN.password), depth: '0' },
    });
    expect(dav.status).toBe(207);
  });
});

describe.each(dbTargets)('wrong second factors and the limiter on %s', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 429 after ten wrong codes, even to the right one, without touching the password budget', async () => {
    const token = await server.login();
    const { secret } = await enableTotp(server, token);
    for (let i = 0; i < 10; i++) {
      const res = await login(server, { totp: String(100000 + i) });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const limited = await login(server, { totp: totpCodeAt(secret, server.clock.now().getTime()) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // The password itself is not blocked: without a code the answer is still totp_required.
    expect((await login(server)).body.kind).toBe('totp_required');
    server.clock.advance(15 * 60_000 + 1000);
    expect((await login(server, { totp: totpCodeAt(secret, server.clock.now().getTime()) })).status).toBe(200);
  });
});

describe.each(dbTargets)('admin sessions on %s', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  const signIn = async (ua: string) => {
    const res = await login(server, {}, { 'user-agent': ua });
    return res.body.data!.token;
  };
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  it('lists sign-ins with device, address and times, the caller marked', async () => {
    const phone = await signIn(IPHONE);
    const desktop = await signIn(FIREFOX);
    const res = await server.call<{ items: AdminSessionView[]; total: number }>('GET', '/api/admin/sessions', {
      token: desktop,
    });
    expect(res.status).toBe(200);
    const items = res.body.data!.items;
    const mine = items.find((s) => s.current)!;
    expect(mine).toMatchObject({ browser: 'Firefox 128', os: 'Linux', address: '127.0.0.1', auth_method: 'password' });
    expect(Date.parse(mine.created_at)).toBeGreaterThan(0);
    expect(items.find((s) => s.browser === 'Safari 17')).toMatchObject({ os: 'iOS', current: false });
    expect(JSON.stringify(items)).not.toContain(phone);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    // Key holders have no sessions here.
    expect((await server.call('GET', '/api/admin/sessions')).status).toBe(401);
  });

  it('ends one session at once, and 404 for one that is gone', async () => {
    const victim = await signIn(IPHONE);
    const me = await signIn(FIREFOX);
    expect((await server.call('GET', '/api/test/admin-token', { token: victim })).status).toBe(200);
    const list = await server.call<{ items: AdminSessionView[] }>('GET', '/api/admin/sessions', { token: victim });
    const victimId = list.body.data!.items.find((s) => s.current)!.id;
    const end = await server.call('DELETE', `/api/admin/sessions/${victimId}`, { token: me });
    expect(end.status).toBe(200);
    const after = await server.call('GET', '/api/test/admin-token', { token: victim });
    expect(after.status).toBe(401);
    expect((await server.call('DELETE', `/api/admin/sessions/${victimId}`, { token: me })).status).toBe(404);
  });

  it('ends every other session, keeping the caller', async () => {
    const others = [await signIn(IPHONE), await signIn(FIREFOX)];
    const me = await signIn(FIREFOX);
    const res = await server.call<{ ended: number }>('DELETE', '/api/admin/sessions', { token: me });
    expect(res.status).toBe(200);
    expect(res.body.data!.ended).toBeGreaterThanOrEqual(2);
    for (const token of others) expect((await server.call('GET', '/api/test/admin-token', { token })).status).toBe(401);
    expect((await server.call('GET', '/api/test/admin-token', { token: me })).status).toBe(200);
    const list = await server.call<{ items: AdminSessionView[] }>('GET', '/api/admin/sessions', { token: me });
    expect(list.body.data!.items).toHaveLength(1);
  });

  it('records the last use at most once a minute', async () => {
    const token = await signIn(FIREFOX);
    const lastUse = async () =>
      (await server.call<{ items: AdminSessionView[] }>('GET', '/api/admin/sessions', { token })).body.data!.items.find(
        (s) => s.current,
      )!.last_used_at!;
    const first = await lastUse();
    server.clock.advance(30_000);
    expect(await lastUse()).toBe(first);
    server.clock.advance(31_000);
    expect(Date.parse(await lastUse())).toBeGreaterThan(Date.parse(first));
  });

  it('a password change ends every other session and keeps the one that made it', async () => {
    const other = await signIn(IPHONE);
    const me = await signIn(FIREFOX);
    const res = await server.call('POST', '/api/admin/change-password', {
      token: me,
      body: { currentPassword: ADMIN.password, newPassword: 'another-password-1' },
    });
    expect(res.status).toBe(200);
    expect((await server.call('GET', '/api/test/admin-token', { token: other })).status).toBe(401);
    expect((await server.call('GET', '/api/test/admin-token', { token: me })).status).toBe(200);
  });
});

describe.each(dbTargets)('backups and two-factor sign-in on %s', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps second factors out of backups; restoring the account leaves the password alone, never locked out', async () => {
    const token = await server.login();
    const { secret, codes } = await enableTotp(server, token);
    const { file } = await download(server, token, { backup_type: 'full' });
    expect(Object.keys(file.tables)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^admin_(second_factor|recovery_codes|passkeys|tokens)$/)]),
    );
    expect(JSON.stringify(file.tables)).not.toContain(secret);

    // Merge keeps the admin as it is (2FA on).
    const merged = await server.call('POST', '/api/admin/backup/restore', {
      token,
      body: { mode: 'merge', backup: file },
    });
    expect(merged.status).toBe(200);
    expect((await login(server)).body.kind).toBe('totp_required');

    const preview = await server.call<{ warnings: string[] }>('POST', '/api/admin/backup/preview', {
      token,
      body: { mode: 'overwrite', backup: file },
    });
    expect(preview.body.data!.warnings.join()).toMatch(/two-factor sign-in and passkeys are not in backups/);
    const restored = await server.call('POST', '/api/admin/backup/restore', {
      token,
      body: { mode: 'overwrite', backup: file },
    });
    expect(restored.status).toBe(200);
    // The restored account signs in with its password alone; the old codes mean nothing any more.
    const after = await login(server);
    expect(after.status, after.body.message).toBe(200);
    const status = await server.call('GET', '/api/admin/2fa', { token: after.body.data!.token });
    expect(status.body.data).toMatchObject({ totp_enabled: false, recovery_codes_left: 0 });
    expect(await server.built.database.db.selectFrom('admin_recovery_codes').selectAll().execute()).toEqual([]);
    expect(secret).toBeTruthy();
    expect(codes).toHaveLength(10);
  });
});
