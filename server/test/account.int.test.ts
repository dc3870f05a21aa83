import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  dbTargets,
  expectEnvelope,
  snapshotTable,
  startTestServer,
  type TestServer,
} from './support/harness.js';

/** Account update rules beyond auth.int.test.ts (spec §4, §5, §6: only the admin changes the admin account). */
describe.each(dbTargets)('account update on %s', (target) => {
  let server: TestServer;
  let password = ADMIN.password;
  let username = ADMIN.username;

  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses key holders, unknown fields and oversized bodies, changing nothing', async () => {
    const token = await server.login();
    const key = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'all', permissions: Permission.TEXT | Permission.FILE_SHARE },
    });
    const before = await snapshotTable(server, 'admins');
    const byKey = await server.call('POST', '/api/admin/change-password', {
      apiKey: key.body.data!.key,
      body: { currentPassword: ADMIN.password, newPassword: 'another-password-1' },
    });
    expect(byKey.status).toBe(403);
    const cases: [number, unknown][] = [
      [400, { currentPassword: ADMIN.password, newPassword: 'another-password-1', role: 'root' }],
      [400, { currentPassword: ADMIN.password, newUsername: 'x' }],
      [400, { currentPassword: ADMIN.password, newUsername: 'a'.repeat(65) }],
      [400, { currentPassword: ADMIN.password, newPassword: 'p'.repeat(257) }],
      [400, { currentPassword: ADMIN.password, newPassword: '', newUsername: '' }],
      [400, { currentPassword: 123, newPassword: 'another-password-1' }],
      [400, 'not json'],
      [413, { currentPassword: ADMIN.password, newPassword: 'x'.repeat(20_000) }],
    ];
    for (const [status, body] of cases) {
      const res = await server.call('POST', '/api/admin/change-password', {
        token,
        ...(typeof body === 'string' ? { rawBody: body, headers: { 'content-type': 'application/json' } } : { body }),
      });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expectEnvelope(res.body, status);
    }
    expect(await snapshotTable(server, 'admins')).toEqual(before);
    expect((await server.call('GET', '/api/test/admin-token', { token })).status).toBe(200);
  });

  it('changes only the username, keeping the password', async () => {
    const token = await server.login(username, password);
    const res = await server.call<{ username: string }>('POST', '/api/admin/change-password', {
      token,
      body: { currentPassword: password, newUsername: '  owner@example.com ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data?.username).toBe('owner@example.com');
    username = 'owner@example.com';
    // The sign-in that made the change goes on (every other one ends).
    expect((await server.call('GET', '/api/test/admin-token', { token })).status).toBe(200);
    expect(await server.login(username, password)).toBeTruthy();
  });

  it('changes only the password, keeping the username', async () => {
    const token = await server.login(username, password);
    const res = await server.call<{ username: string }>('POST', '/api/admin/change-password', {
      token,
      body: { currentPassword: password, newPassword: 'brand-new-password-2', newUsername: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data?.username).toBe(username);
    password = 'brand-new-password-2';
    expect(
      (await server.call('POST', '/api/admin/login', { body: { username, password: ADMIN.password } })).status,
    ).toBe(401);
    expect(await server.login(username, password)).toBeTruthy();
  });

  it('keeping the same username with a new password is allowed', async () => {
    const token = await server.login(username, password);
    const res = await server.call('POST', '/api/admin/change-password', {
      token,
      body: { currentPassword: password, newUsername: username, newPassword: 'third-password-333' },
    });
    expect(res.status).toBe(200);
    password = 'third-password-333';
    expect(await server.login(username, password)).toBeTruthy();
  });
});
