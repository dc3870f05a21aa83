import type { ListPage, StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createS3Config, startS3rver, upload, type S3rverHandle } from './support/fileShares.js';

describe.each(dbTargets)('storage configs on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;
  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const list = async () =>
    (await server.call<ListPage<StorageConfigView>>('GET', '/api/s3-configs', { token })).body.data!;

  it('has a built-in local config that is the default from the first start', async () => {
    const page = await list();
    expect(page.total).toBe(1);
    expect(page.page).toBe(1);
    expect(page.items[0]).toMatchObject({
      storage_type: 'local',
      is_default: true,
      is_builtin: true,
      has_secret: false,
    });
    // the start-up check is idempotent (a restart finds the config and creates no second one)
    await server.built.services.storageConfigs.ensureBuiltin();
    expect((await list()).total).toBe(1);
  });

  it('creates an S3 config, never returns the secret, stores it encrypted', async () => {
    const config = await createS3Config(server, token, s3, {
      name: 'emulator',
      secret_access_key: 'super-secret-value-1234',
    });
    expect(config).toMatchObject({
      name: 'emulator',
      storage_type: 's3',
      provider: 'minio',
      has_secret: true,
      is_default: false,
    });
    expect(JSON.stringify(config)).not.toContain('super-secret-value');
    expect(config.secret_access_key_masked).toBe('••••1234');
    const rows = await server.built.database.db.selectFrom('storage_configs').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('super-secret-value');
    const got = await server.call<StorageConfigView>('GET', `/api/s3-configs/${config.id}`, { token });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain('super-secret-value');
    // duplicate name
    const dup = await server.call('POST', '/api/s3-configs', {
      token,
      body: { name: 'emulator', endpoint: s3.endpoint, bucket: 'b', access_key_id: 'a', secret_access_key: 's' },
    });
    expect(dup.status).toBe(409);
  });

  it('rejects bad input with field messages', async () => {
    const bad = [
      {},
      { name: 'x', bucket: 'b', access_key_id: 'a', secret_access_key: 's' }, // provider other needs endpoint
      { name: 'x', endpoint: 'ftp://host', bucket: 'b', access_key_id: 'a', secret_access_key: 's' },
      { name: 'x', endpoint: 'http://h', bucket: 'b c', access_key_id: 'a', secret_access_key: 's' },
      { name: 'x', endpoint: 'http://h', bucket: 'b', access_key_id: 'a', secret_access_key: 's', provider: 'dropbox' },
      {
        name: 'x',
        endpoint: 'http://h',
        bucket: 'b',
        access_key_id: 'a',
        secret_access_key: 's',
        default_folder: '../up',
      },
      {
        name: 'x',
        endpoint: 'http://h',
        bucket: 'b',
        access_key_id: 'a',
        secret_access_key: 's',
        default_folder: 'a/%2e%2e/b',
      },
      {
        name: 'x',
        endpoint: 'http://h',
        bucket: 'b',
        access_key_id: 'a',
        secret_access_key: 's',
        default_folder: 'a\u0000b',
      },
      { name: 'x', endpoint: 'http://h', bucket: 'b', access_key_id: 'a', secret_access_key: 's', total_capacity: -1 },
      {
        name: 'x',
        endpoint: 'http://h',
        bucket: 'b',
        access_key_id: 'a',
        secret_access_key: 's',
        signature_expires_in: 5,
      },
      {
        name: 'x',
        endpoint: 'http://h',
        bucket: 'b',
        access_key_id: 'a',
        secret_access_key: 's',
        storage_type: 'local',
      },
      { name: 'x', endpoint: 'http://h', bucket: 'b', access_key_id: 'a', secret_access_key: 's', unknown: 1 },
    ];
    for (const body of bad) {
      const res = await server.call('POST', '/api/s3-configs', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectEnvelope(res.body, 400);
    }
    expect((await server.call('GET', '/api/s3-configs/nope', { token })).status).toBe(404);
    expect((await server.call('GET', '/api/s3-configs?limit=0', { token })).status).toBe(400);
  });

  it('updates fields, keeps the secret when omitted, replaces it when given', async () => {
    const config = await createS3Config(server, token, s3, { secret_access_key: 'first-secret-aaaa' });
    const upd = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}`, {
      token,
      body: { name: 'renamed', total_capacity: 5_000_000_000, default_folder: '/shares//2026/' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: 'renamed',
      total_capacity: 5_000_000_000,
      default_folder: 'shares/2026',
      secret_access_key_masked: '••••aaaa',
    });
    const upd2 = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}`, {
      token,
      body: { secret_access_key: 'second-secret-bbbb' },
    });
    expect(upd2.body.data?.secret_access_key_masked).toBe('••••bbbb');
    // the built-in local config has no S3 fields
    const local = (await list()).items.find((c) => c.storage_type === 'local')!;
    const bad = await server.call('PUT', `/api/s3-configs/${local.id}`, { token, body: { bucket: 'x' } });
    expect(bad.status).toBe(400);
    const ok = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${local.id}`, {
      token,
      body: { total_capacity: 3_000_000_000 },
    });
    expect(ok.body.data?.total_capacity).toBe(3_000_000_000);
    await server.call('PUT', `/api/s3-configs/${local.id}`, { token, body: { total_capacity: null } });
    await server.call('DELETE', `/api/s3-configs/${config.id}`, { token });
  });

  it('tests a config: connect, write, read, list, delete with latencies; a wrong endpoint fails at connect', async () => {
    const config = await createS3Config(server, token, s3);
    const started = performance.now();
    const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${config.id}/test`, { token });
    const wallMs = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.data?.success).toBe(true);
    expect(res.body.data?.steps.map((s) => s.step)).toEqual(['connect', 'write', 'read', 'list', 'delete']);
    // Each step's latency is a measured part of this request: whole (rounded) milliseconds that together fit inside the
    // time the client waited (a constant, a total or a unit mix-up would not).
    const latencies = res.body.data!.steps.map((s) => s.latency_ms);
    for (const ms of latencies) expect(Number.isInteger(ms) && ms >= 0).toBe(true);
    expect(latencies.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(Math.ceil(wallMs) + latencies.length / 2);

    const local = (await list()).items.find((c) => c.storage_type === 'local')!;
    const localTest = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${local.id}/test`, { token });
    expect(localTest.body.data?.success).toBe(true);
    expect(localTest.body.data?.steps.map((s) => s.step)).toEqual(['connect', 'write', 'read', 'list', 'delete']);

    const broken = await createS3Config(server, token, s3, { endpoint: 'http://127.0.0.1:1', name: 'broken' });
    const failed = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${broken.id}/test`, { token });
    expect(failed.status).toBe(200);
    expect(failed.body.data?.success).toBe(false);
    expect(failed.body.data?.steps).toHaveLength(1);
    expect(failed.body.data?.steps[0]).toMatchObject({ step: 'connect', success: false });
    expect(failed.body.data?.steps[0]?.message).toBeTruthy();
    await server.call('DELETE', `/api/s3-configs/${broken.id}`, { token });
    await server.call('DELETE', `/api/s3-configs/${config.id}`, { token });
  }, 30_000);

  it('sets the default (exactly one), and the next upload goes there', async () => {
    const config = await createS3Config(server, token, s3);
    const res = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}/set-default`, { token });
    expect(res.body.data?.is_default).toBe(true);
    const defaults = (await list()).items.filter((c) => c.is_default);
    expect(defaults.map((c) => c.id)).toEqual([config.id]);
    const up = await upload(server, 'to s3', { token });
    expect(up.status).toBe(201);
    expect(up.body.data).toMatchObject({ s3_config_id: config.id, provider_type: 's3' });

    // in use → 409 with the count, nothing deleted
    const del = await server.call<{ files: number; mounts: number }>('DELETE', `/api/s3-configs/${config.id}`, {
      token,
    });
    expect(del.status).toBe(409);
    expect(del.body.data).toEqual({ files: 1, mounts: 0, mount_paths: [] });
    expect(del.body.message).toContain('1 file share');
    expect((await server.call('GET', `/api/s3-configs/${config.id}`, { token })).status).toBe(200);

    // after the share is gone it can be deleted; the default falls back to local
    await server.call('DELETE', '/api/files/batch-delete', { token, body: { ids: [up.body.data!.id] } });
    const del2 = await server.call('DELETE', `/api/s3-configs/${config.id}`, { token });
    expect(del2.status).toBe(200);
    const after = await list();
    expect(after.items.find((c) => c.is_default)?.storage_type).toBe('local');
  });

  it('refuses to delete the built-in local config and needs the admin', async () => {
    const local = (await list()).items.find((c) => c.storage_type === 'local')!;
    expect((await server.call('DELETE', `/api/s3-configs/${local.id}`, { token })).status).toBe(409);
    expect((await server.call('GET', '/api/s3-configs')).status).toBe(401);
    const key = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'files-only', permissions: Permission.FILE_SHARE },
    });
    // key holders with FILE_SHARE may list configs to pick an upload target, without connection details
    const keyList = await server.call<ListPage<StorageConfigView>>('GET', '/api/s3-configs', {
      apiKey: key.body.data!.key,
    });
    expect(keyList.status).toBe(200);
    expect(keyList.body.data!.items.length).toBeGreaterThan(0);
    for (const item of keyList.body.data!.items) {
      expect(item).toMatchObject({ endpoint: '', bucket: '', access_key_id: '', secret_access_key_masked: '' });
    }
    expect((await server.call('GET', `/api/s3-configs/${local.id}`, { apiKey: key.body.data!.key })).status).toBe(403);
    expect((await server.call('POST', `/api/s3-configs/${local.id}/test`, { apiKey: key.body.data!.key })).status).toBe(
      403,
    );
    const textKey = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'text-only', permissions: Permission.TEXT },
    });
    expect((await server.call('GET', '/api/s3-configs', { apiKey: textKey.body.data!.key })).status).toBe(403);
  });
});
