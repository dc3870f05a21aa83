import { Permission, type ApiKeyTestResult, type ApiKeyView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, snapshotTable, type TestServer } from './support/harness.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withAdminServer } from './support/adminServer.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';

describe.each(dbTargets)('API keys on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  const create = (body: unknown) => server.call<ApiKeyView>('POST', '/api/admin/api-keys', { token, body });

  it('creates a key with defaults, lists it, and the key authenticates', async () => {
    const res = await create({ name: 'ci-bot', permissions: Permission.TEXT | Permission.FILE_SHARE });
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    const key = res.body.data!;
    expect(key).toMatchObject({
      name: 'ci-bot',
      role: 'GENERAL',
      basic_path: '/',
      is_guest: 0,
      enabled: true,
      expires_at: null,
    });
    expect(key.key).toMatch(/^cn_[A-Za-z0-9_-]{32}$/);
    expect(key.key_masked).not.toContain(key.key.slice(4, -4));

    const list = await server.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token });
    expect(list.body.data?.map((k) => k.name)).toContain('ci-bot');

    const test = await server.call<ApiKeyTestResult>('GET', '/api/test/api-key', { apiKey: key.key });
    expect(test.status).toBe(200);
    expect(test.body.data).toMatchObject({
      name: 'ci-bot',
      basic_path: '/',
      permissions: 3,
      key_info: { id: key.id, name: 'ci-bot', basic_path: '/' },
    });
    expect(typeof test.body.data?.permissions).toBe('number');
    const after = await server.call<ApiKeyView[]>('GET', '/api/admin/api-keys', { token });
    expect(after.body.data?.find((k) => k.id === key.id)?.last_used).toBeTruthy();
  });

  it('keeps keys out of a database dump', async () => {
    const res = await create({ name: 'dump-check', custom_key: 'my_custom-key_123' });
    expect(res.status).toBe(201);
    expect(res.body.data?.key).toBe('my_custom-key_123');
    const rows = await snapshotTable(server, 'api_keys');
    expect(rows.join()).not.toContain('my_custom-key_123');
    expect((await server.call('GET', '/api/test/api-key', { apiKey: 'my_custom-key_123' })).status).toBe(200);
  });

  /** A mount at `at` over the mountable local folder (base paths must lie in the tree). */
  const mountAt = async (at: string) =>
    createMount(server, token, { path: at, storage_config_id: await mountableLocalConfig(server, token) });

  it('normalises basic_path, honours presets and custom days', async () => {
    await mountAt('/docs');
    const res = await create({
      name: 'paths',
      basic_path: '//docs//team/./',
      expires_in_days: 7,
      is_guest: 1,
      role: 'READONLY',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ basic_path: '/docs/team', is_guest: 1, role: 'READONLY' });
    const days = (Date.parse(res.body.data!.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    // The one path normaliser refuses backslashes (and `..`, encoded dots, control characters) everywhere.
    for (const basic_path of ['/docs\\team', '/docs/../x', '/%2e%2e']) {
      const bad = await create({ name: 'bad path', basic_path });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/basic_path/);
    }
    const never = await create({ name: 'never', expires_at: 'never' });
    expect(never.body.data?.expires_at).toBeNull();
  });

  it('rejects bad input with 400 and writes nothing', async () => {
    const before = await snapshotTable(server, 'api_keys');
    const bad = [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x', permissions: 4 },
      { name: 'x', permissions: -1 },
      { name: 'x', permissions: 1.5 },
      { name: 'x', permissions: '3' },
      { name: 'x', custom_key: 'has space in it' },
      { name: 'x', custom_key: 'short' },
      { name: 'x', basic_path: '/a/../../etc' },
      { name: 'x', basic_path: '/a/%2e%2e/b' },
      { name: 'x', expires_at: 'tomorrow' },
      { name: 'x', expires_at: '2001-01-01T00:00:00Z' },
      { name: 'x', expires_in_days: 0 },
      { name: 'x', expires_in_days: 2.5 },
      { name: 'x', is_guest: 2 },
      { name: 'x', role: 'ROOT' },
      { name: 'x', unknown_field: true },
      { name: 'x'.repeat(65) },
    ];
    for (const body of bad) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectEnvelope(res.body, 400);
    }
    expect(await snapshotTable(server, 'api_keys')).toEqual(before);
  });

  it('names the offending field', async () => {
    const res = await create({ name: 'x', permissions: 4 });
    expect(res.body.message).toContain('permissions');
    expect(res.body.data).toMatchObject({ fields: [{ path: 'permissions' }] });
  });

  it('refuses duplicate names and keys with 409', async () => {
    await create({ name: 'dupe', custom_key: 'dupe-key-0001' });
    const before = await snapshotTable(server, 'api_keys');
    const sameName = await create({ name: 'dupe' });
    expect(sameName.status).toBe(409);
    expectEnvelope(sameName.body, 409);
    const sameKey = await create({ name: 'dupe-2', custom_key: 'dupe-key-0001' });
    expect(sameKey.status).toBe(409);
    expect(await snapshotTable(server, 'api_keys')).toEqual(before);
  });

  it('refuses a basic_path no mount holds, or a file, with a 400 naming the field; allows a folder to come', async () => {
    await mountAt('/shelf');
    mkdirSync(path.join(mountedLocalRoot(server), 'real'), { recursive: true });
    writeFileSync(path.join(mountedLocalRoot(server), 'note.txt'), 'x');
    const before = await snapshotTable(server, 'api_keys');
    for (const [basic_path, reason] of [
      ['/nowhere', 'no_mount'],
      ['/shel', 'no_mount'],
      ['/shelf/note.txt', 'not_a_folder'],
    ] as const) {
      const res = await create({ name: `bad ${basic_path}`, basic_path });
      expect(res.status, basic_path).toBe(400);
      expect(res.body.kind).toBe('validation');
      expect(res.body.data, basic_path).toMatchObject({ fields: [{ path: 'basic_path' }], reason });
      expect(res.body.message).toMatch(/^basic_path /);
    }
    expect(await snapshotTable(server, 'api_keys')).toEqual(before);
    // A folder that exists, a mount, a folder above mounts, and one inside a mount that does not exist yet
    // (the first upload makes it; S3 has no empty folders) are all fine.
    for (const basic_path of ['/shelf/real', '/shelf', '/', '/shelf/not-yet/deeper']) {
      const res = await create({ name: `ok ${basic_path}`, basic_path });
      expect(res.status, basic_path).toBe(201);
    }
    // Updating to a path outside the tree is refused the same way; an unchanged one is not checked again.
    const { data: key } = (await create({ name: 'mover', basic_path: '/shelf' })).body;
    const moved = await server.call('PUT', `/api/admin/api-keys/${key!.id}`, { token, body: { basic_path: '/gone' } });
    expect(moved.status).toBe(400);
    expect(moved.body.data).toMatchObject({ fields: [{ path: 'basic_path' }], reason: 'no_mount' });
  });

  it('updates and deletes; unknown and malformed ids are 404', async () => {
    await mountAt('/media');
    const { data: key } = (await create({ name: 'to-edit', permissions: 1 })).body;
    const updated = await server.call<ApiKeyView>('PUT', `/api/admin/api-keys/${key!.id}`, {
      token,
      body: { name: 'edited', permissions: Permission.MOUNT_VIEW | Permission.WEBDAV_READ, basic_path: '/media/' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'edited',
      permissions: 65792,
      basic_path: '/media',
      key: key!.key,
    });

    const clash = await server.call('PUT', `/api/admin/api-keys/${key!.id}`, { token, body: { name: 'dupe' } });
    expect(clash.status).toBe(409);
    const badBits = await server.call('PUT', `/api/admin/api-keys/${key!.id}`, { token, body: { permissions: 8 } });
    expect(badBits.status).toBe(400);

    for (const id of ['AAAAAAAAAAAAAAAA', '..%2f..', 'x']) {
      expect((await server.call('PUT', `/api/admin/api-keys/${id}`, { token, body: { name: 'n' } })).status).toBe(404);
      expect((await server.call('DELETE', `/api/admin/api-keys/${id}`, { token })).status).toBe(404);
    }
    expect((await server.call('DELETE', `/api/admin/api-keys/${key!.id}`, { token })).status).toBe(200);
    expect((await server.call('GET', '/api/test/api-key', { apiKey: key!.key })).status).toBe(401);
  });

  it('refuses disabled, expired and unknown keys with 401', async () => {
    const { data: key } = (await create({ name: 'lifecycle', expires_in_days: 1 })).body;
    expect((await server.call('GET', '/api/test/api-key', { apiKey: key!.key })).status).toBe(200);

    await server.call('PUT', `/api/admin/api-keys/${key!.id}`, { token, body: { enabled: false } });
    const disabled = await server.call('GET', '/api/test/api-key', { apiKey: key!.key });
    expect(disabled.status).toBe(401);
    expect(disabled.body.message).toMatch(/disabled/);
    await server.call('PUT', `/api/admin/api-keys/${key!.id}`, { token, body: { enabled: true } });

    server.clock.advance(2 * 86_400_000);
    try {
      const expired = await server.call('GET', '/api/test/api-key', { apiKey: key!.key });
      expect(expired.status).toBe(401);
      expect(expired.body.message).toMatch(/expired/);
    } finally {
      server.clock.advance(-2 * 86_400_000);
    }
    const unknown = await server.call('GET', '/api/test/api-key', { apiKey: 'cn_not-a-real-key' });
    expect(unknown.status).toBe(401);
    expectEnvelope(unknown.body, 401);
  });

  it('keeps admin endpoints away from key holders and anonymous callers', async () => {
    const { data: key } = (await create({ name: 'all-bits', permissions: 0b11_0000_0000_0000_0000 | 0x1f03 })).body;
    expect((await server.call('GET', '/api/test/api-key', { apiKey: key!.key })).status).toBe(200); // sets last_used
    const before = await snapshotTable(server, 'api_keys');
    const asKey = await server.call('POST', '/api/admin/api-keys', { apiKey: key!.key, body: { name: 'sneaky' } });
    expect(asKey.status).toBe(403);
    expectEnvelope(asKey.body, 403);
    expect((await server.call('GET', '/api/admin/api-keys', { apiKey: key!.key })).status).toBe(403);
    expect((await server.call('GET', '/api/admin/api-keys')).status).toBe(401);
    expect((await server.call('DELETE', `/api/admin/api-keys/${key!.id}`)).status).toBe(401);
    expect(await snapshotTable(server, 'api_keys')).toEqual(before);
    // an admin token is not an API key
    expect((await server.call('GET', '/api/test/api-key', { token })).status).toBe(401);
  });
});
