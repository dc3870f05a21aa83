// Issue 34, point 5: a WebDAV COPY or MOVE whose Destination is the source or one of its ancestors (in the tree,
// or through a second mount of the same storage) is refused with 403 before anything is deleted. With
// `Overwrite: T` the server used to delete the destination first, and with it the source: `demo` was wiped.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskSnapshot } from '../support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from '../support/mounts.js';
import { basicAuth, davClient } from '../support/webdav.js';

describe.each(dbTargets)('WebDAV COPY / MOVE onto the source or an ancestor on %s', (target) => {
  let server: TestServer;
  const admin = basicAuth(ADMIN.username, ADMIN.password);
  const dav = davClient(() => server.url, admin);
  const disk = (rel: string) => path.join(mountedLocalRoot(server), rel);

  beforeAll(async () => {
    server = await startTestServer(target);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    // Two mounts of one storage config: /local/x and /local2/x are the same object.
    await createMount(server, token, { path: '/local', storage_config_id: localId, webdav_policy: 'native_proxy' });
    await createMount(server, token, { path: '/local2', storage_config_id: localId, webdav_policy: 'native_proxy' });
    expect((await dav('MKCOL', '/dav/local/demo')).status).toBe(201);
    expect((await dav('MKCOL', '/dav/local/demo/sub')).status).toBe(201);
    expect((await dav('PUT', '/dav/local/demo/sub/a.txt', {}, 'source')).status).toBe(201);
    expect((await dav('PUT', '/dav/local/demo/keep.txt', {}, 'sibling')).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  const refusals: Array<[string, string, string]> = [
    // The destination holds the source (an ancestor): overwriting it would delete the source.
    ['COPY', '/dav/local/demo/sub/a.txt', '/dav/local/demo'],
    ['MOVE', '/dav/local/demo/sub/a.txt', '/dav/local/demo'],
    ['COPY', '/dav/local/demo/sub', '/dav/local/demo'],
    ['MOVE', '/dav/local/demo/sub', '/dav/local/demo/'],
    ['COPY', '/dav/local/demo/sub/a.txt', '/dav/local'],
    // The destination is the source.
    ['COPY', '/dav/local/demo/sub/a.txt', '/dav/local/demo/sub/a.txt'],
    ['MOVE', '/dav/local/demo/sub', '/dav/local/demo/sub/'],
    // The same, through the other mount of the same storage.
    ['COPY', '/dav/local/demo/sub/a.txt', '/dav/local2/demo'],
    ['MOVE', '/dav/local/demo/sub/a.txt', '/dav/local2/demo/sub'],
    ['COPY', '/dav/local/demo/sub/a.txt', '/dav/local2/demo/sub/a.txt'],
    ['MOVE', '/dav/local/demo/sub/a.txt', '/dav/local2/demo/sub/a.txt'],
    ['COPY', '/dav/local2/demo/sub', '/dav/local/demo'],
  ];

  it.each(refusals)('%s %s onto %s: 403 with Overwrite T, nothing deleted', async (method, from, to) => {
    const before = diskSnapshot(server);
    const res = await dav(method, from, { destination: `${server.url}${to}`, overwrite: 'T' });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await res.text()).toContain('<D:error');
    expect(diskSnapshot(server)).toEqual(before);
    expect(readFileSync(disk('demo/sub/a.txt'), 'utf8')).toBe('source');
    expect(readFileSync(disk('demo/keep.txt'), 'utf8')).toBe('sibling');
  });

  it('still copies and moves beside the source, and overwrites a destination that is neither', async () => {
    const copy = await dav('COPY', '/dav/local/demo/sub/a.txt', { destination: '/dav/local2/demo/b.txt' });
    expect(copy.status).toBe(201);
    const again = await dav('COPY', '/dav/local/demo/sub/a.txt', {
      destination: '/dav/local/demo/b.txt',
      overwrite: 'T',
    });
    expect(again.status).toBe(204);
    const move = await dav('MOVE', '/dav/local/demo/b.txt', { destination: '/dav/local2/demo/sub/c.txt' });
    expect(move.status).toBe(201);
    expect(readFileSync(disk('demo/sub/c.txt'), 'utf8')).toBe('source');
    expect(existsSync(disk('demo/b.txt'))).toBe(false);
    expect(readFileSync(disk('demo/sub/a.txt'), 'utf8')).toBe('source');
  });
});
