// Issue #37 point 1: one copy engine. REST copy tasks and WebDAV COPY / MOVE both go through Vfs.copy: the
// same "same storage" rule (the storage config, so two mounts of one config copy server-side), the same
// overwrite options, and a WebDAV COPY of a folder runs as a copy task that shows in the task list.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BatchCopyResult, TaskView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StorageError } from '../src/storage/types.js';
import { driverOf } from '../src/vfs/drivers.js';
import { SYSTEM_ADMIN, putFile, readFile, waitForTask } from './support/fsTree.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { basicAuth, davClient } from './support/webdav.js';

describe.each(dbTargets)('one copy engine for REST copy tasks and WebDAV on %s', (target) => {
  let server: TestServer;
  let token: string;
  const dav = davClient(() => server.url, basicAuth(ADMIN.username, ADMIN.password));
  const disk = (rel: string) => path.join(mountedLocalRoot(server), rel);

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    // Two mounts of one storage config, the second nested deeper in the tree (its own mount path).
    await createMount(server, token, { path: '/one', storage_config_id: localId, cache_ttl: 0 });
    await createMount(server, token, { path: '/deep/two', storage_config_id: localId, cache_ttl: 0 });
    await putFile(server, '/one/src/a.txt', 'alpha');
    await putFile(server, '/one/src/sub/b.txt', 'beta');
  });
  afterAll(async () => {
    await server?.close();
  });

  const copyTask = async (items: Array<{ sourcePath: string; targetPath: string }>, skipExisting = false) => {
    const res = await server.call<BatchCopyResult>('POST', '/api/fs/batch-copy', {
      token,
      body: { items, skipExisting },
    });
    expect(res.status, res.body.message).toBe(202);
    return waitForTask(server, token, res.body.data!.task.id);
  };

  it('copies server-side between two mounts of one storage config, for REST tasks and WebDAV alike', async () => {
    const resolved = await server.built.services.vfs.resolve(SYSTEM_ADMIN, '/one/src/a.txt', 0);
    const driver = driverOf(resolved);
    const copy = vi.spyOn(driver, 'copy');
    const read = vi.spyOn(driver, 'read');
    try {
      const task = await copyTask([{ sourcePath: '/one/src/a.txt', targetPath: '/deep/two/rest-a.txt' }]);
      expect(task.status).toBe('completed');
      expect(copy).toHaveBeenCalledWith('src/a.txt', 'rest-a.txt', { overwrite: true });
      const res = await dav('COPY', '/dav/one/src/a.txt', { destination: `${server.url}/dav/deep/two/dav-a.txt` });
      expect(res.status).toBe(201);
      expect(copy).toHaveBeenCalledWith('src/a.txt', 'dav-a.txt', { overwrite: false });
      // Nothing streamed through the server.
      expect(read).not.toHaveBeenCalled();
    } finally {
      copy.mockRestore();
      read.mockRestore();
    }
    expect(readFileSync(disk('rest-a.txt'), 'utf8')).toBe('alpha');
    expect(readFileSync(disk('dav-a.txt'), 'utf8')).toBe('alpha');
  });

  it('both callers go through Vfs.copy, each with its overwrite option', async () => {
    const { vfs } = server.built.services;
    const spy = vi.spyOn(vfs, 'copy');
    try {
      await putFile(server, '/one/exists.txt', 'old');
      // REST: an existing file is overwritten in place, or left with skipExisting.
      expect((await copyTask([{ sourcePath: '/one/src/a.txt', targetPath: '/one/exists.txt' }], true)).status).toBe(
        'completed',
      );
      expect((await readFile(server, '/one/exists.txt')).toString()).toBe('old');
      expect((await copyTask([{ sourcePath: '/one/src/a.txt', targetPath: '/one/exists.txt' }])).status).toBe(
        'completed',
      );
      expect((await readFile(server, '/one/exists.txt')).toString()).toBe('alpha');
      // WebDAV: Overwrite F refuses an existing destination (412), T replaces it.
      await putFile(server, '/one/exists.txt', 'old');
      const refused = await dav('COPY', '/dav/one/src/sub/b.txt', {
        destination: `${server.url}/dav/one/exists.txt`,
        overwrite: 'F',
      });
      expect(refused.status).toBe(412);
      expect((await readFile(server, '/one/exists.txt')).toString()).toBe('old');
      const replaced = await dav('COPY', '/dav/one/src/sub/b.txt', {
        destination: `${server.url}/dav/one/exists.txt`,
        overwrite: 'T',
      });
      expect(replaced.status).toBe(204);
      expect((await readFile(server, '/one/exists.txt')).toString()).toBe('beta');
      const modes = spy.mock.calls.map((call) => call[3]?.overwrite);
      expect(modes).toEqual(['skip', 'merge', 'replace']);
    } finally {
      spy.mockRestore();
    }
  });

  it('runs a WebDAV COPY of a folder as a copy task the request waits for; it shows in the task list', async () => {
    const res = await dav('COPY', '/dav/one/src', { destination: `${server.url}/dav/deep/two/dav-tree` });
    expect(res.status).toBe(201);
    // The request answered once the copy was done.
    expect(readFileSync(disk('dav-tree/sub/b.txt'), 'utf8')).toBe('beta');
    const list = await server.call<{ items: TaskView[] }>('GET', '/api/fs/tasks?limit=200', { token });
    expect(list.status).toBe(200);
    const task = list.body.data!.items.find((t) => t.subject?.target === '/deep/two/dav-tree');
    expect(task, JSON.stringify(list.body.data?.items.map((t) => t.name))).toBeDefined();
    expect(task!.type).toBe('copy');
    expect(task!.status).toBe('completed');
    expect(task!.subject).toEqual({ source: '/one/src', target: '/deep/two/dav-tree', count: 1 });
  });

  it('answers a WebDAV folder COPY that failed in its task with the failure itself; the task shows it failed', async () => {
    const resolved = await server.built.services.vfs.resolve(SYSTEM_ADMIN, '/one/src', 0);
    const copy = vi.spyOn(driverOf(resolved), 'copy').mockRejectedValue(new StorageError('quota', 'disk full'));
    let res: Response;
    try {
      res = await dav('COPY', '/dav/one/src', { destination: `${server.url}/dav/one/full-tree` });
    } finally {
      copy.mockRestore();
    }
    expect(res.status).toBe(507);
    const list = await server.call<{ items: TaskView[] }>('GET', '/api/fs/tasks?limit=200', { token });
    const task = list.body.data!.items.find((t) => t.subject?.target === '/one/full-tree');
    expect(task?.status).toBe('failed');
    expect(task?.retryable).toBe(true);
  });

  it('answers a WebDAV MOVE of a folder and a COPY over a folder as before, through tasks', async () => {
    expect((await dav('COPY', '/dav/one/src', { destination: `${server.url}/dav/one/to-move` })).status).toBe(201);
    const moved = await dav('MOVE', '/dav/one/to-move', { destination: `${server.url}/dav/deep/two/moved` });
    expect(moved.status).toBe(201);
    expect(existsSync(disk('to-move'))).toBe(false);
    expect(readFileSync(disk('moved/a.txt'), 'utf8')).toBe('alpha');
    // A destination that exists with Overwrite: F: 412 before any task.
    const refused = await dav('COPY', '/dav/one/src', {
      destination: `${server.url}/dav/deep/two/moved`,
      overwrite: 'F',
    });
    expect(refused.status).toBe(412);
    // Overwrite: T replaces the folder (what was only in the old one is gone).
    await putFile(server, '/deep/two/moved/only-old.txt', 'x');
    const replaced = await dav('COPY', '/dav/one/src', { destination: `${server.url}/dav/deep/two/moved` });
    expect(replaced.status).toBe(204);
    expect(existsSync(disk('moved/only-old.txt'))).toBe(false);
    expect(readFileSync(disk('moved/sub/b.txt'), 'utf8')).toBe('beta');
  });
});
