import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

interface Stats {
  caches: { name: string; entries: number; path_scoped: boolean }[];
  total_entries: number;
}

describe.each(dbTargets)('cache endpoints on %s', (target) => {
  let server: TestServer;
  let token: string;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    apiKey = (
      await server.call<{ key: string }>('POST', '/api/admin/api-keys', { token, body: { name: 'k', permissions: 1 } })
    ).body.data!.key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports and clears caches for the admin', async () => {
    await server.call('GET', '/api/public/site-settings');
    const stats = await server.call<Stats>('GET', '/api/admin/cache/stats', { token });
    expect(stats.status).toBe(200);
    expect(stats.body.data?.caches.find((c) => c.name === 'settings')?.entries).toBe(1);
    const cleared = await server.call<{ cleared: number }>('POST', '/api/admin/cache/clear', { token });
    expectEnvelope(cleared.body, 200);
    expect(cleared.body.data?.cleared).toBeGreaterThanOrEqual(1);
    const after = await server.call<Stats>('GET', '/api/admin/cache/stats', { token });
    expect(after.body.data?.total_entries).toBe(0);
  });

  it('lets a key holder clear only path-scoped caches', async () => {
    await server.call('GET', '/api/public/site-settings');
    const res = await server.call<{ cleared: number }>('POST', '/api/user/cache/clear', { apiKey });
    expect(res.status).toBe(200);
    const stats = await server.call<Stats>('GET', '/api/admin/cache/stats', { token });
    expect(stats.body.data?.caches.find((c) => c.name === 'settings')?.entries).toBe(1);
    expect((await server.call('GET', '/api/admin/cache/stats', { apiKey })).status).toBe(403);
    expect((await server.call('POST', '/api/admin/cache/clear', { apiKey })).status).toBe(403);
    expect((await server.call('POST', '/api/user/cache/clear')).status).toBe(401);
  });
});
