// The WebDAV settings page's endpoints: where to connect, and the live check of /dav/ per identity.
import { Permission, type WebdavCheckResult, type WebdavInfo } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from './support/mounts.js';
import { createApiKey } from './support/apiKeys.js';
import { withAdminServer } from './support/adminServer.js';

describe.each(dbTargets)('WebDAV settings endpoints on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  const check = (body: unknown) => server.call<WebdavCheckResult>('POST', '/api/admin/webdav/check', { token, body });

  it('answers an empty /dav/ because there is no mount yet', async () => {
    const res = await check({ identity: 'admin' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ entries: [], empty_reason: 'no_mounts', identity: { type: 'admin' } });
  });

  it('lists /dav/ for the admin and for a key, and says why a key sees nothing', async () => {
    const info = await server.call<WebdavInfo>('GET', '/api/admin/webdav', { token });
    expect(info.body.data?.admin_username).toBe(ADMIN.username);
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/team', storage_config_id: localId });
    await createMount(server, token, { path: '/照片', storage_config_id: localId });

    const admin = await check({ identity: 'admin' });
    expect(admin.body.data?.entries).toEqual([
      { name: 'team', href: '/dav/team/', is_dir: true },
      { name: '照片', href: '/dav/%E7%85%A7%E7%89%87/', is_dir: true },
    ]);
    expect(admin.body.data?.empty_reason).toBeUndefined();

    const team = await createPathKey(server, token, Permission.WEBDAV_READ, '/team/docs');
    const keyed = await check({ identity: 'apikey', key: team });
    expect(keyed.body.data).toMatchObject({
      identity: { type: 'apikey', basic_path: '/team/docs', can_write: false },
      entries: [{ name: 'team', href: '/dav/team/', is_dir: true }],
    });

    // A base path must lie in the tree when it is set (issue 35 point 16): its mount is removed afterwards.
    const nowhere = await createMount(server, token, { path: '/nowhere', storage_config_id: localId });
    const elsewhere = await createPathKey(server, token, Permission.WEBDAV_MANAGE, '/nowhere');
    expect((await server.call('DELETE', `/api/mount/${nowhere.id}`, { token })).status).toBe(200);
    const none = await check({ identity: 'apikey', key: elsewhere });
    expect(none.body.data).toMatchObject({
      entries: [],
      empty_reason: 'none_in_base_path',
      identity: { can_write: true },
    });
  });

  it('names what keeps a key out of WebDAV, and refuses malformed input', async () => {
    expect((await check({ identity: 'apikey', key: 'cn_not-a-key' })).body.data?.problem).toBe('unknown_key');
    const textOnly = await createPathKey(server, token, Permission.TEXT, '/');
    expect((await check({ identity: 'apikey', key: textOnly })).body.data?.problem).toBe('no_webdav_permission');
    const off = await createApiKey(server, token, { name: 'off', permissions: Permission.WEBDAV_READ, enabled: false });
    expect((await check({ identity: 'apikey', key: off.key })).body.data?.problem).toBe('disabled');
    expect((await check({ identity: 'apikey', key: '' })).status).toBe(400);
    expect((await check({ identity: 'someone' })).status).toBe(400);
    const anonymous = await server.call('POST', '/api/admin/webdav/check', { body: { identity: 'admin' } });
    expect(anonymous.status).toBe(401);
  });
});
