import type { MountList, MountView, StorageConfigView } from '@clipnest/contract';
import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { newId } from '../src/lib/ids.js';
import { builtinLocalConfig, insertMount } from './support/featureRows.js';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { ADMIN, dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from './support/mounts.js';

describe.each(dbTargets)('mounts on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;
  let localId: string;
  let s3Config: StorageConfigView;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    localId = await mountableLocalConfig(server, token);
    s3Config = await createS3Config(server, token, s3);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const mountRows = async () =>
    (await server.built.database.db.selectFrom('mounts').selectAll().orderBy('id').execute()).map((r) =>
      JSON.stringify(r),
    );

  it('creates local and S3 mounts with every field, lists them, and counts them on the dashboard', async () => {
    const local = await createMount(server, token, {
      name: '本地',
      path: '/local',
      storage_config_id: localId,
      remark: 'disk',
      sort_order: 2,
      cache_ttl: 0,
      web_proxy: true,
      enable_sign: true,
      sign_expires: 600,
      webdav_policy: 'native_proxy',
    });
    expect(local).toMatchObject({
      name: '本地',
      path: '/local',
      storage_type: 'local',
      storage_config_id: localId,
      remark: 'disk',
      sort_order: 2,
      cache_ttl: 0,
      is_active: true,
      web_proxy: true,
      enable_sign: true,
      sign_expires: 600,
      webdav_policy: 'native_proxy',
    });
    expect(local.created_by).toBeTruthy();
    expect(local.created_at).toMatch(/Z$/);
    const remote = await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id, sort_order: 1 });
    expect(remote).toMatchObject({ storage_type: 's3', webdav_policy: '302_redirect', cache_ttl: 60, is_active: true });

    const list = await server.call<MountList>('GET', '/api/mount/list', { token });
    expect(list.status).toBe(200);
    expect(list.body.data?.items.map((m) => m.path)).toEqual(['/s3', '/local']);
    const stats = await server.call<{ counts: { mounts: number } }>('GET', '/api/admin/dashboard/stats', { token });
    expect(stats.body.data?.counts.mounts).toBe(2);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const before = await mountRows();
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ path: '/x', storage_config_id: localId }, 400, /name/],
      [{ name: '', path: '/x', storage_config_id: localId }, 400, /name/],
      [{ name: 'x'.repeat(51), path: '/x', storage_config_id: localId }, 400, /name is at most 50/],
      [{ name: 'x', storage_config_id: localId }, 400, /path/],
      [{ name: 'x', path: 'x', storage_config_id: localId }, 400, /path must start with \//],
      [{ name: 'x', path: '/a b', storage_config_id: localId }, 400, /path must look like/],
      [{ name: 'x', path: '/a/../b', storage_config_id: localId }, 400, /path must look like/],
      [{ name: 'x', path: '/a//b', storage_config_id: localId }, 400, /path must look like/],
      [{ name: 'x', path: '/x/', storage_config_id: localId }, 400, /path must look like/],
      [{ name: 'x', path: '/api', storage_config_id: localId }, 400, /reserved/],
      [{ name: 'x', path: '/DAV/x', storage_config_id: localId }, 400, /reserved/],
      [{ name: 'x', path: '/mount-explorer', storage_config_id: localId }, 400, /reserved/],
      [{ name: 'x', path: '/assets', storage_config_id: localId }, 400, /reserved/],
      [{ name: 'x', path: '/x' }, 400, /storage_config_id/],
      [{ name: 'x', path: '/x', storage_config_id: 'nope-nope-nope' }, 400, /storage_config_id.*does not exist/],
      [{ name: 'x', path: '/x', storage_config_id: localId, storage_type: 's3' }, 400, /storage_type/],
      [{ name: 'x', path: '/x', storage_config_id: localId, cache_ttl: -1 }, 400, /cache_ttl cannot be negative/],
      [{ name: 'x', path: '/x', storage_config_id: localId, cache_ttl: 86401 }, 400, /cache_ttl is at most 86400/],
      [{ name: 'x', path: '/x', storage_config_id: localId, cache_ttl: 1.5 }, 400, /cache_ttl must be an integer/],
      [{ name: 'x', path: '/x', storage_config_id: localId, sort_order: 'a' }, 400, /sort_order/],
      [{ name: 'x', path: '/x', storage_config_id: localId, webdav_policy: 'x' }, 400, /webdav_policy/],
      [{ name: 'x', path: '/x', storage_config_id: localId, bogus: 1 }, 400, /bogus/],
      [{ name: 'x', path: '/local', storage_config_id: localId }, 409, /path: a mount already uses \/local/],
    ];
    for (const [body, status, message] of cases) {
      const res = await server.call('POST', '/api/mount/create', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expectEnvelope(res.body, status);
      expect(res.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await mountRows()).toEqual(before);
  });

  it('allows nested mounts (longest prefix wins) and paths with Chinese characters', async () => {
    const nested = await createMount(server, token, { path: '/local/照片_2024-a', storage_config_id: s3Config.id });
    expect(nested.path).toBe('/local/照片_2024-a');
    const del = await server.call('DELETE', `/api/mount/${nested.id}`, { token });
    expect(del.status).toBe(200);
  });

  it('updates fields, refuses a taken path, and deletes', async () => {
    const m = await createMount(server, token, { path: '/edit-me', storage_config_id: localId });
    const res = await server.call<MountView>('PUT', `/api/mount/${m.id}`, {
      token,
      body: { name: 'edited', cache_ttl: 10, is_active: false, path: '/edited', storage_config_id: s3Config.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'edited',
      cache_ttl: 10,
      is_active: false,
      path: '/edited',
      storage_type: 's3',
    });
    const taken = await server.call('PUT', `/api/mount/${m.id}`, { token, body: { path: '/local' } });
    expect(taken.status).toBe(409);
    const bad = await server.call('PUT', `/api/mount/${m.id}`, { token, body: { cache_ttl: 100000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/cache_ttl/);
    const missing = await server.call('PUT', '/api/mount/nonexistent-id', { token, body: { name: 'x' } });
    expect(missing.status).toBe(404);
    const gone = await server.call('DELETE', `/api/mount/${m.id}`, { token });
    expect(gone.status).toBe(200);
    expect((await server.call('DELETE', `/api/mount/${m.id}`, { token })).status).toBe(404);
  });

  it('lets key holders list only the mounts their base path reaches, and nothing else', async () => {
    await createMount(server, token, { path: '/team', storage_config_id: localId });
    await createMount(server, token, { path: '/team-b', storage_config_id: localId });
    await createMount(server, token, { path: '/team/sub', storage_config_id: localId });
    const teamKey = await createPathKey(server, token, Permission.MOUNT_VIEW, '/team');
    const list = await server.call<MountList>('GET', '/api/mount/list', { apiKey: teamKey });
    expect(list.status).toBe(200);
    expect(list.body.data?.items.map((m) => m.path).sort()).toEqual(['/team', '/team/sub']);
    const deepKey = await createPathKey(server, token, Permission.MOUNT_VIEW, '/team/sub/x');
    const deep = await server.call<MountList>('GET', '/api/mount/list', { apiKey: deepKey });
    expect(deep.body.data?.items.map((m) => m.path).sort()).toEqual(['/team', '/team/sub']);

    const textKey = await createPathKey(server, token, Permission.TEXT);
    expect((await server.call('GET', '/api/mount/list', { apiKey: textKey })).status).toBe(403);
    expect((await server.call('GET', '/api/mount/list')).status).toBe(401);

    const fullKey = await createPathKey(
      server,
      token,
      Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD | Permission.MOUNT_DELETE,
    );
    const before = await mountRows();
    const id = list.body.data!.items[0]!.id;
    const create = await server.call('POST', '/api/mount/create', {
      apiKey: fullKey,
      body: { name: 'k', path: '/k', storage_config_id: localId },
    });
    expect(create.status).toBe(403);
    const status = await server.call('PUT', `/api/mount/${id}`, { apiKey: fullKey, body: { is_active: false } });
    expect(status.status).toBe(403);
    expect((await server.call('DELETE', `/api/mount/${id}`, { apiKey: fullKey })).status).toBe(403);
    expect(await mountRows()).toEqual(before);
  });

  it('refuses to delete a storage config that mounts use, naming them', async () => {
    const config = await createS3Config(server, token, s3);
    await createMount(server, token, { path: '/in-use-a', storage_config_id: config.id });
    await createMount(server, token, { path: '/in-use-b', storage_config_id: config.id });
    const res = await server.call<{ mounts: number; mount_paths: string[] }>('DELETE', `/api/s3-configs/${config.id}`, {
      token,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('2 mount(s) (/in-use-a, /in-use-b)');
    expect(res.body.data).toMatchObject({ mounts: 2, mount_paths: ['/in-use-a', '/in-use-b'] });
    expect((await server.call('GET', `/api/s3-configs/${config.id}`, { token })).status).toBe(200);
  });

  it('keeps the built-in share storage out of every mount, including local roots that overlap it', async () => {
    const builtin = await builtinLocalConfig(server);
    const shareRoot = server.built.services.storageRegistry.localRoot;
    const before = await mountRows();
    const refused = await server.call('POST', '/api/mount/create', {
      token,
      body: { name: 'shares', path: '/shares', storage_config_id: builtin.id },
    });
    expectEnvelope(refused.body, 400);
    expect(refused.body.message).toContain('built-in local storage holds the file shares');
    const existing = await createMount(server, token, { path: '/switch', storage_config_id: localId });
    const update = await server.call('PUT', `/api/mount/${existing.id}`, {
      token,
      body: { storage_config_id: builtin.id },
    });
    expectEnvelope(update.body, 400);

    // A row made before this rule (or restored from a backup) answers 403 and lists nothing.
    await insertMount(server, {
      id: newId(),
      storage_config_id: builtin.id,
      path: '/legacy-shares',
      storage_type: 'local',
    });
    server.built.services.vfs.mountsChanged();
    const listed = await server.call('GET', '/api/fs/list?path=/legacy-shares', { token });
    expectEnvelope(listed.body, 403);
    expect(listed.body.message).toContain('built-in local storage');
    const dav = await fetch(`${server.url}/dav/legacy-shares/`, {
      method: 'PROPFIND',
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
        depth: '1',
      },
    });
    expect(dav.status).toBe(403);

    // Local configs may not be, contain or lie inside the share storage.
    for (const root of [shareRoot, path.dirname(shareRoot), path.join(shareRoot, 'inner')]) {
      const res = await server.call('POST', '/api/s3-configs', {
        token,
        body: { name: `overlap ${root}`, storage_type: 'local', root_path: root },
      });
      expectEnvelope(res.body, 400);
      expect(res.body.message).toContain('built-in share storage');
    }
    expect((await mountRows()).length).toBe(before.length + 2);
  });
});
