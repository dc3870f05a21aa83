// Issue 35 point 9: ten wrong passwords from one address lock the right one out too for 15 minutes (NAT, a client
// retrying a mistyped password). The rule stays; the admin now sees the blocked addresses (door, since, until) and
// clears one (GET / DELETE /api/admin/webdav/blocked), and the 429 says when the block ends (message and data).
import type { ApiEnvelope, BlockedAddressView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { basicAuth } from './support/webdav.js';

const LIMIT = 10;
const WINDOW_MS = 15 * 60_000;

describe.each(dbTargets)('blocked addresses on %s', (target) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(target, { TRUST_PROXY: 'true' });
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const from = (client: string) => ({ 'x-forwarded-for': client });
  const webdav = (client: string, password: string) =>
    fetch(`${server.url}/dav/`, {
      method: 'PROPFIND',
      headers: { depth: '0', authorization: basicAuth(ADMIN.username, password), ...from(client) },
    });
  const login = async (client: string, password: string) => {
    const res = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(client) },
      body: JSON.stringify({ username: ADMIN.username, password }),
    });
    return { status: res.status, body: (await res.json()) as ApiEnvelope<{ retry_after: number; until: string }> };
  };
  const blocked = async () => {
    const res = await server.call<{ items: BlockedAddressView[]; total: number }>('GET', '/api/admin/webdav/blocked', {
      token,
      headers: from('192.0.2.1'),
    });
    expectEnvelope(res.body, 200);
    return res.body.data!.items;
  };

  it('lists an address blocked at the WebDAV door with since/until, says when the 429 ends, and clears it', async () => {
    const client = '198.51.100.7';
    const started = server.clock.now().getTime();
    expect(await blocked()).toEqual([]);
    for (let i = 0; i < LIMIT; i++) expect((await webdav(client, `wrong-${i}`)).status).toBe(401);

    // The right password is refused too, and the 429 says until when (message, data, Retry-After).
    expect((await webdav(client, ADMIN.password)).status).toBe(429);
    const refused = await login(client, ADMIN.password);
    expect(refused.status).toBe(429);
    expectEnvelope(refused.body, 429);
    const until = refused.body.data!.until;
    expect(Date.parse(until)).toBeGreaterThanOrEqual(started + WINDOW_MS - 1000);
    expect(Date.parse(until)).toBeLessThanOrEqual(server.clock.now().getTime() + WINDOW_MS);
    expect(refused.body.message).toContain(`blocked until ${until}`);
    expect(refused.body.data!.retry_after).toBeGreaterThan(WINDOW_MS / 1000 - 60);

    // The admin (from elsewhere) sees it: which address, which door, since when, until when.
    const [row, ...others] = await blocked();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ address: client, door: 'webdav', until, failures: LIMIT });
    expect(Date.parse(row!.since!)).toBeGreaterThanOrEqual(started);
    expect(Date.parse(row!.since!)).toBeLessThanOrEqual(server.clock.now().getTime());
    // An address below the limit is not listed, and stores no address.
    expect((await webdav('198.51.100.8', 'wrong')).status).toBe(401);
    expect((await blocked()).map((b) => b.address)).toEqual([client]);

    // Only the admin lists or clears.
    expect((await server.call('GET', '/api/admin/webdav/blocked')).status).toBe(401);
    expect((await server.call('DELETE', `/api/admin/webdav/blocked/${row!.id}`)).status).toBe(401);
    // A made-up id: 404 in the envelope.
    expectEnvelope((await server.call('DELETE', '/api/admin/webdav/blocked/nope', { token })).body, 404);
    expectEnvelope((await server.call('DELETE', `/api/admin/webdav/blocked/${'0'.repeat(64)}`, { token })).body, 404);

    // Cleared: the address gets in at once with the right password, and is no longer listed.
    expectEnvelope((await server.call('DELETE', `/api/admin/webdav/blocked/${row!.id}`, { token })).body, 200);
    expect(await blocked()).toEqual([]);
    expect((await webdav(client, ADMIN.password)).status).toBe(207);
  });

  it('a block ends on its own when its window does', async () => {
    const client = '198.51.100.9';
    for (let i = 0; i < LIMIT; i++) expect((await login(client, `wrong-${i}`)).status).toBe(401);
    const [row] = (await blocked()).filter((b) => b.address === client);
    expect(row).toMatchObject({ door: 'login' });
    server.clock.advance(WINDOW_MS + 1000);
    expect((await blocked()).filter((b) => b.address === client)).toEqual([]);
    expect((await login(client, ADMIN.password)).status).toBe(200);
  });
});
