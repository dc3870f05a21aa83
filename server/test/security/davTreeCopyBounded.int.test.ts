// Issue 34, point 13: the same storage mounted twice. A WebDAV COPY of a folder into itself through the other
// mount used to recurse (~200 levels) while it copied what it had just written; the REST copy task took the
// same request. Both are refused before anything is written, and a tree copied through the server is walked
// first and bounded (depth and entries: TREE_COPY_LIMITS) with a clear 413, leaving nothing behind.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREE_COPY_LIMITS } from '../../src/vfs/copy.js';
import { diskSnapshot } from '../support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from '../support/mounts.js';
import { basicAuth, davClient } from '../support/webdav.js';

describe.each(dbTargets)('tree copies across two mounts of one storage on %s', (target) => {
  let server: TestServer;
  let token: string;
  const admin = basicAuth(ADMIN.username, ADMIN.password);
  const dav = davClient(() => server.url, admin);
  const disk = (rel: string) => path.join(mountedLocalRoot(server), rel);
  const otherRoot = () => path.join(path.dirname(mountedLocalRoot(server)), 'other-local');

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/one', storage_config_id: localId, webdav_policy: 'native_proxy' });
    await createMount(server, token, { path: '/two', storage_config_id: localId, webdav_policy: 'native_proxy' });
    // Another storage: a tree copied there streams through the server (one storage copies by itself).
    const other = await server.call<{ id: string }>('POST', '/api/s3-configs', {
      token,
      body: { name: 'Other local', storage_type: 'local', root_path: otherRoot() },
    });
    expect(other.status).toBe(201);
    await createMount(server, token, { path: '/other', storage_config_id: other.body.data!.id });
    expect((await dav('MKCOL', '/dav/one/tree')).status).toBe(201);
    expect((await dav('MKCOL', '/dav/one/tree/inner')).status).toBe(201);
    expect((await dav('PUT', '/dav/one/tree/inner/f.txt', {}, 'data')).status).toBe(201);
    // A tree one level deeper than a copy may go.
    const deep = Array.from({ length: TREE_COPY_LIMITS.maxDepth + 1 }, (_, i) => `d${i}`).join('/');
    mkdirSync(disk(`deep/${deep}`), { recursive: true });
    writeFileSync(disk(`deep/${deep}/leaf.txt`), 'leaf');
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['COPY', '/dav/one/tree', '/dav/two/tree/inner/copy'],
    ['COPY', '/dav/two/tree', '/dav/one/tree/copy'],
    ['MOVE', '/dav/one/tree', '/dav/two/tree/inner/moved'],
    ['COPY', '/dav/one/tree', '/dav/two/tree/inner'],
  ])('%s %s into itself through the other mount (%s): 403, nothing written', async (method, from, to) => {
    const before = diskSnapshot(server);
    const res = await dav(method, from, { destination: `${server.url}${to}`, overwrite: 'T' });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('into itself');
    expect(diskSnapshot(server)).toEqual(before);
    expect(existsSync(disk('tree/inner/f.txt'))).toBe(true);
  });

  it('refuses the same copy as a REST copy task (400), before a task exists', async () => {
    const before = diskSnapshot(server);
    const res = await server.call('POST', '/api/fs/batch-copy', {
      token,
      body: { items: [{ sourcePath: '/one/tree', targetPath: '/two/tree/inner/copy' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('into itself');
    const same = await server.call('POST', '/api/fs/batch-copy', {
      token,
      body: { items: [{ sourcePath: '/one/tree/inner/f.txt', targetPath: '/two/tree/inner/f.txt' }] },
    });
    expect(same.status).toBe(400);
    expect(diskSnapshot(server)).toEqual(before);
  });

  it(`bounds the depth of a tree copied through the server (${TREE_COPY_LIMITS.maxDepth} levels): 413, nothing written`, async () => {
    const before = diskSnapshot(server);
    const res = await dav('COPY', '/dav/one/deep', { destination: '/dav/other/deep-copy' });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain(`at most ${TREE_COPY_LIMITS.maxDepth} folders deep`);
    expect(existsSync(path.join(otherRoot(), 'deep-copy'))).toBe(false);
    const task = await server.call('POST', '/api/fs/batch-copy', {
      token,
      body: { items: [{ sourcePath: '/one/deep', targetPath: '/two/deep-copy' }] },
    });
    expect(task.status).toBe(413);
    expect(task.body.message).toContain(`at most ${TREE_COPY_LIMITS.maxDepth} folders deep`);
    expect(diskSnapshot(server)).toEqual(before);
  });

  it('copies a tree too deep to stream between two mounts of one storage: the storage copies it itself', async () => {
    const res = await dav('COPY', '/dav/one/deep', { destination: '/dav/two/deep-copy' });
    expect(res.status).toBe(201);
    const deep = Array.from({ length: TREE_COPY_LIMITS.maxDepth + 1 }, (_, i) => `d${i}`).join('/');
    expect(existsSync(disk(`deep-copy/${deep}/leaf.txt`))).toBe(true);
    expect((await dav('DELETE', '/dav/two/deep-copy')).status).toBe(204);
  });

  it('still copies a tree across the two mounts beside itself', async () => {
    const res = await dav('COPY', '/dav/one/tree', { destination: '/dav/two/tree-copy' });
    expect(res.status).toBe(201);
    expect(existsSync(disk('tree-copy/inner/f.txt'))).toBe(true);
    expect(existsSync(disk('tree-copy/tree-copy'))).toBe(false);
  });
});
