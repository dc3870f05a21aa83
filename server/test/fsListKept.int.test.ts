// GET /api/fs/list keeps the serialised answer of a big cached folder (FsService.listJson) and its compressed
// bodies: repeating it must answer exactly what a fresh build would, and never outlive what made it valid —
// a write through the tree, refresh=true, a nested mount created below, or the caller's rights.
import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Permission, type FsListing } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ADMIN, putFile } from './support/fsTree.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';

const FILES = 300;

describe.each(dbTargets)('kept listings of big cached folders (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let localConfig: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    localConfig = await mountableLocalConfig(server, token);
    const dir = path.join(mountedLocalRoot(server), 'big');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < FILES; i++) writeFileSync(path.join(dir, `f-${String(i).padStart(4, '0')}.txt`), `${i}`);
    await createMount(server, token, { path: '/local', storage_config_id: localConfig, cache_ttl: 3600 });
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query: string, headers: Record<string, string> = {}, auth: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/api/fs/list?path=%2Flocal%2Fbig${query}`, {
      headers: { authorization: `Bearer ${token}`, ...headers, ...auth },
    });
    return { status: res.status, encoding: res.headers.get('content-encoding'), text: await res.text() };
  };
  const fresh = async (query: { limit?: number; offset?: number } = {}) => {
    // What the service builds from scratch for the same folder (FsService.list, no kept answer).
    return server.built.services.fs.list(SYSTEM_ADMIN, '/local/big', query);
  };

  it('answers a repeated cached listing identically, compressed or not, and equal to a fresh build', async () => {
    const first = await list('');
    expect(first.status).toBe(200);
    const second = await list('');
    const third = await list('', { 'accept-encoding': 'identity' });
    const gzip = await list('', { 'accept-encoding': 'gzip' });
    expect(third.encoding).toBeNull();
    expect(gzip.encoding).toBe('gzip');
    const envelope = JSON.parse(second.text) as { code: number; message: string; success: boolean; data: FsListing };
    expectEnvelope(envelope, 200);
    expect(envelope.data.cached).toBe(true);
    expect(envelope.data.items).toHaveLength(FILES);
    expect(third.text).toBe(second.text);
    expect(gzip.text).toBe(second.text);
    expect(envelope.data).toEqual({ ...(await fresh()), cached: true });
    // A page is its own answer.
    const page = JSON.parse((await list('&limit=250&offset=10')).text) as { data: FsListing };
    expect(page.data.items.map((i) => i.name)).toEqual(
      (await fresh({ limit: 250, offset: 10 })).items.map((i) => i.name),
    );
  });

  it('never outlives a write through the tree, refresh=true or a nested mount created below', async () => {
    await list('');
    await putFile(server, '/local/big/zz-new.txt', 'new');
    const afterWrite = JSON.parse((await list('')).text) as { data: FsListing };
    expect(afterWrite.data.total).toBe(FILES + 1);
    expect(afterWrite.data.items.map((i) => i.name)).toContain('zz-new.txt');

    // Behind the app's back: the kept answer stays (the cache's TTL rules), refresh=true reads the disk.
    writeFileSync(path.join(mountedLocalRoot(server), 'big', 'zz-outside.txt'), 'x');
    expect((JSON.parse((await list('')).text) as { data: FsListing }).data.total).toBe(FILES + 1);
    const refreshed = JSON.parse((await list('&refresh=true')).text) as { data: FsListing };
    expect(refreshed.data).toMatchObject({ total: FILES + 2, cached: false });
    expect((JSON.parse((await list('')).text) as { data: FsListing }).data).toMatchObject({
      total: FILES + 2,
      cached: true,
    });

    await createMount(server, token, { path: '/local/big/nested', storage_config_id: localConfig, cache_ttl: 0 });
    const withMount = JSON.parse((await list('')).text) as { data: FsListing };
    expect(withMount.data.items[0]).toMatchObject({ name: 'nested', isMount: true });
    expect(withMount.data.total).toBe(FILES + 3);
  });

  it('checks the caller’s rights before answering a kept listing', async () => {
    await list('');
    const outside = await createPathKey(server, token, Permission.MOUNT_VIEW, '/local/other');
    const denied = await list('', {}, { authorization: `ApiKey ${outside}` });
    expect(denied.status).toBe(403);
    const noView = await createPathKey(server, token, Permission.MOUNT_UPLOAD);
    expect((await list('', {}, { authorization: `ApiKey ${noView}` })).status).toBe(403);
    const inside = await createPathKey(server, token, Permission.MOUNT_VIEW, '/local/big');
    expect((await list('', {}, { authorization: `ApiKey ${inside}` })).status).toBe(200);
  });
  it('writes a listing bigger than one slice in slices, and it reads as one answer equal to a fresh build', async () => {
    // FsService serialises 2,000 entries per turn of the event loop: 4,500 make three slices.
    const dir = path.join(mountedLocalRoot(server), 'sliced');
    mkdirSync(dir, { recursive: true });
    // Written without blocking the event loop: 4,500 synchronous writes held it past the server's keep-alive
    // timeout on a busy CI machine, and fetch then reused the connection the server had closed (ECONNRESET).
    const names = Array.from({ length: 4500 }, (_, i) => `s-${String(i).padStart(4, '0')}.txt`);
    for (let i = 0; i < names.length; i += 500) {
      await Promise.all(names.slice(i, i + 500).map((name) => writeFile(path.join(dir, name), '')));
    }
    const res = await fetch(`${server.url}/api/fs/list?path=%2Flocal%2Fsliced`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const envelope = (await res.json()) as { code: number; message: string; success: boolean; data: FsListing };
    expectEnvelope(envelope, 200);
    expect(envelope.data.items).toHaveLength(4500);
    expect(envelope.data.items.map((i) => i.name)).toEqual(
      Array.from({ length: 4500 }, (_, i) => `s-${String(i).padStart(4, '0')}.txt`),
    );
    expect(envelope.data).toEqual({
      ...(await server.built.services.fs.list(SYSTEM_ADMIN, '/local/sliced', {})),
      cached: envelope.data.cached,
    });
  });
});
