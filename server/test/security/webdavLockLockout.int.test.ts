// Issue 34 point 6: a WebDAV lock must not lock the admin out. A key with write access locked its base folder with
// `Timeout: Infinite` (7 days): the admin got 423 on every write below it (a nested mount too) and 403 on UNLOCK,
// deleting the key left the lock, and /api/fs/update overwrote a file locked over WebDAV. Now: locks last at most an
// hour (renewable), the admin lists and breaks them (API, and UNLOCK over WebDAV), a disabled or deleted key's locks
// go, and writes through the fs API honour the locks (423 in the envelope).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Permission, type WebdavLockView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import { withAdminServer } from '../support/adminServer.js';
import { fsUpload } from '../support/fsApi.js';
import { ADMIN, dbTargets, expectEnvelope, type TestServer } from '../support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from '../support/mounts.js';
import { basicAuth } from '../support/webdav.js';
import { createApiKey } from '../support/apiKeys.js';

const LOCK_BODY = (owner: string) =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>` +
  `<D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;

describe.each(dbTargets)('WebDAV lock lock-out on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));
  const admin = basicAuth(ADMIN.username, ADMIN.password);

  const dav = (method: string, url: string, auth: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: auth, ...headers },
      ...(body !== undefined ? { body } : {}),
    });

  let mounted = false;
  /** A folder `/mnt/<name>` (on a local mount), with `a.txt` and `sub/b.txt`; a key that writes over WebDAV there. */
  async function setup(name: string) {
    if (!mounted) {
      const configId = await mountableLocalConfig(server, token);
      await createMount(server, token, { path: '/mnt', storage_config_id: configId, webdav_policy: 'native_proxy' });
      mounted = true;
    }
    const dir = path.join(mountedLocalRoot(server), name);
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'a.txt'), 'original');
    writeFileSync(path.join(dir, 'sub', 'b.txt'), 'original b');
    const key = await createApiKey(server, token, {
      name: `writer ${name}`,
      permissions: Permission.WEBDAV_MANAGE,
      basic_path: `/mnt/${name}`,
    });
    return { dir, key, auth: basicAuth(key.key, key.key) };
  }

  async function lockFolder(name: string, auth: string, timeout = 'Infinite') {
    const res = await dav('LOCK', `/dav/mnt/${name}/`, auth, { depth: 'infinity', timeout }, LOCK_BODY('mallory'));
    expect(res.status).toBe(200);
    return { token: res.headers.get('lock-token') as string, body: await res.text() };
  }

  const locks = async () => {
    const res = await server.call<{ items: WebdavLockView[]; total: number }>('GET', '/api/admin/webdav/locks', {
      token,
    });
    expect(res.status).toBe(200);
    return res.body.data!;
  };

  it('grants Timeout: Infinite for an hour at most; the lock ends then unless refreshed', async () => {
    const { auth } = await setup('capped');
    const lock = await lockFolder('capped', auth);
    expect(lock.body).toContain('<D:timeout>Second-3600</D:timeout>');
    expect((await dav('PUT', '/dav/mnt/capped/a.txt', admin, {}, 'by admin')).status).toBe(423);
    // A refresh (LOCK with the token, no body) renews it for another hour.
    server.clock.advance(50 * 60_000);
    const refresh = await dav('LOCK', '/dav/mnt/capped/', auth, { if: `(${lock.token})`, timeout: 'Infinite' });
    expect(refresh.status).toBe(200);
    server.clock.advance(50 * 60_000);
    expect((await dav('PUT', '/dav/mnt/capped/a.txt', admin, {}, 'by admin')).status).toBe(423);
    // Not refreshed again: an hour after the refresh it is gone on its own.
    server.clock.advance(11 * 60_000);
    expect((await dav('PUT', '/dav/mnt/capped/a.txt', admin, {}, 'by admin')).status).toBe(204);
  });

  it('the admin lists a key’s lock with its holder and breaks it (API), and may UNLOCK it over WebDAV', async () => {
    const { key, auth } = await setup('broken');
    const first = await lockFolder('broken', auth);
    const listed = (await locks()).items.find((l) => `urn:uuid:${l.id}` === first.token.replace(/[<>]/g, ''));
    expect(listed).toMatchObject({
      path: '/mnt/broken',
      depth: 'infinity',
      scope: 'exclusive',
      holder: { type: 'apikey', id: key.id, name: key.name },
      timeout_seconds: 3600,
    });
    expect(listed!.owner).toContain('mallory');
    // A nested write is refused while it holds; the admin breaks it, then writes.
    expect((await dav('PUT', '/dav/mnt/broken/sub/b.txt', admin, {}, 'x')).status).toBe(423);
    const broken = await server.call('DELETE', `/api/admin/webdav/locks/${listed!.id}`, { token });
    expectEnvelope(broken.body, 200);
    expect((await locks()).items.some((l) => l.id === listed!.id)).toBe(false);
    expect((await dav('PUT', '/dav/mnt/broken/sub/b.txt', admin, {}, 'x')).status).toBe(204);
    // Breaking it again, or a made-up id: 404 in the envelope (never a 500).
    expectEnvelope((await server.call('DELETE', `/api/admin/webdav/locks/${listed!.id}`, { token })).body, 404);
    expectEnvelope((await server.call('DELETE', '/api/admin/webdav/locks/..%2Fx', { token })).body, 404);
    // Only the admin: a key (even the holder) gets no list and breaks nothing.
    const second = await lockFolder('broken', auth);
    const id = second.token.replace(/[<>]/g, '').slice('urn:uuid:'.length);
    const asKey = await server.call('GET', '/api/admin/webdav/locks', { apiKey: key.key });
    expect([401, 403]).toContain(asKey.status);
    expect([401, 403]).toContain(
      (await server.call('DELETE', `/api/admin/webdav/locks/${id}`, { apiKey: key.key })).status,
    );
    // The admin's UNLOCK of the key's lock over WebDAV releases it (it was 403).
    expect((await dav('UNLOCK', '/dav/mnt/broken/', admin, { 'lock-token': second.token })).status).toBe(204);
    expect((await dav('PUT', '/dav/mnt/broken/a.txt', admin, {}, 'free')).status).toBe(204);
  });

  it('drops a key’s locks when the key is disabled or deleted', async () => {
    const { key, auth } = await setup('revoked');
    await lockFolder('revoked', auth);
    expect((await locks()).items.filter((l) => l.holder.id === key.id)).toHaveLength(1);
    expectEnvelope(
      (await server.call('PUT', `/api/admin/api-keys/${key.id}`, { token, body: { enabled: false } })).body,
      200,
    );
    expect((await locks()).items.filter((l) => l.holder.id === key.id)).toHaveLength(0);
    expect((await dav('PUT', '/dav/mnt/revoked/a.txt', admin, {}, 'after disable')).status).toBe(204);

    await server.call('PUT', `/api/admin/api-keys/${key.id}`, { token, body: { enabled: true } });
    await lockFolder('revoked', auth);
    expect((await dav('PUT', '/dav/mnt/revoked/a.txt', admin, {}, 'x')).status).toBe(423);
    expectEnvelope((await server.call('DELETE', `/api/admin/api-keys/${key.id}`, { token })).body, 200);
    expect((await locks()).items.filter((l) => l.holder.id === key.id)).toHaveLength(0);
    expect((await dav('PUT', '/dav/mnt/revoked/a.txt', admin, {}, 'after delete')).status).toBe(204);
  });

  it('writes through the fs API honour WebDAV locks: update, upload, rename, delete, mkdir, copy target → 423', async () => {
    const { dir, auth } = await setup('guarded');
    const lock = await lockFolder('guarded', auth);
    const refused = (res: { status: number; body: Parameters<typeof expectEnvelope>[0] }) => {
      expectEnvelope(res.body, 423);
      expect(res.body.message).toMatch(/locked over WebDAV/);
    };
    refused(
      await server.call('POST', '/api/fs/update', { token, body: { path: '/mnt/guarded/a.txt', content: 'lost' } }),
    );
    refused(await fsUpload(server, { token }, 'lost', { before: { path: '/mnt/guarded/a.txt' }, filename: 'a.txt' }));
    refused(
      await fsUpload(server, { token }, 'new', { before: { path: '/mnt/guarded/new.txt' }, filename: 'new.txt' }),
    );
    refused(
      await server.call('POST', '/api/fs/rename', {
        token,
        body: { oldPath: '/mnt/guarded/a.txt', newPath: '/mnt/guarded/c.txt' },
      }),
    );
    refused(await server.call('POST', '/api/fs/batch-remove', { token, body: { paths: ['/mnt/guarded/sub'] } }));
    refused(await server.call('POST', '/api/fs/mkdir', { token, body: { path: '/mnt/guarded/newdir' } }));
    refused(
      await server.call('POST', '/api/fs/batch-copy', {
        token,
        body: { items: [{ sourcePath: '/mnt/guarded/sub/b.txt', targetPath: '/mnt/guarded/a.txt' }] },
      }),
    );
    // Nothing changed on disk.
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('original');
    expect(readFileSync(path.join(dir, 'sub', 'b.txt'), 'utf8')).toBe('original b');
    // Reads still work; the lock holder's own WebDAV write with its token too.
    expect((await server.call('GET', '/api/fs/get?path=/mnt/guarded/a.txt', { token })).status).toBe(200);
    expect((await dav('PUT', '/dav/mnt/guarded/a.txt', auth, { if: `(${lock.token})` }, 'by holder')).status).toBe(204);
    // Once released, the fs API writes again.
    expect((await dav('UNLOCK', '/dav/mnt/guarded/', auth, { 'lock-token': lock.token })).status).toBe(204);
    expectEnvelope(
      (await server.call('POST', '/api/fs/update', { token, body: { path: '/mnt/guarded/a.txt', content: 'saved' } }))
        .body,
      200,
    );
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('saved');
  });
});
