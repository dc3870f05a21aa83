// Issue 34 point 10: WebDAV PUT and /api/fs/update ignored the max upload size, and writes into mounts ignored
// the storage config's total_capacity. One check (Vfs.checkWrite) now guards every write path into a mount:
// fs upload, fs update, presign and multipart init, WebDAV PUT, WebDAV COPY across storages and copy tasks.
// Over it: 413 in the spec's envelope and words (max upload size / "insufficient storage"), nothing written.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { BatchCopyResult, StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, setMaxUpload, startS3rver, type S3rverHandle } from '../support/fileShares.js';
import { bucketSnapshot, fsUpload } from '../support/fsApi.js';
import { waitForTask } from '../support/fsTree.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from '../support/mounts.js';
import { basicAuth } from '../support/webdav.js';

const KiB = 1024;
const bytes = (n: number, fill = 97) => new Uint8Array(n).fill(fill);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

describe.each(dbTargets)('write limits of mounts on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;
  let token: string;
  let localConfigId: string;
  let s3Config: StorageConfigView;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    localConfigId = await mountableLocalConfig(server, token);
    s3Config = await createS3Config(server, token, s3);
    await createMount(server, token, { path: '/local', storage_config_id: localConfigId, cache_ttl: 0 });
    await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id, cache_ttl: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const dav = (method: string, url: string, headers: Record<string, string> = {}, body?: Uint8Array) =>
    fetch(`${server.url}/dav${url}`, {
      method,
      headers: { authorization: basicAuth(ADMIN.username, ADMIN.password), ...headers },
      ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}),
    });
  const api = (method: string, url: string, body: unknown) => server.call(method, url, { token, body });
  /** 413 with the spec's words: the API's JSON envelope, or WebDAV's XML error body carrying the same message. */
  const expect413 = async (res: Response | { status: number; body: unknown }, pattern: RegExp, what: string) => {
    if ('text' in res && typeof res.text === 'function') {
      const text = await res.text();
      expect(res.status, `${what}: ${text}`).toBe(413);
      if (res.headers.get('content-type')?.includes('json')) expect(JSON.parse(text).code).toBe(413);
      expect(text, what).toMatch(pattern);
      return;
    }
    const body = res.body as { code: number; message: string };
    expect(res.status, `${what}: ${body.message}`).toBe(413);
    expect(body.code).toBe(413);
    expect(body.message, what).toMatch(pattern);
  };
  const snapshot = async () => ({ disk: filesUnder(mountedLocalRoot(server)), bucket: await bucketSnapshot(s3) });

  it('every write path refuses a file over the max upload size with 413, nothing written', async () => {
    expect(
      (await fsUpload(server, { token }, bytes(150 * KiB), { before: { path: '/local/src/big.bin' } })).status,
    ).toBe(201);
    await setMaxUpload(server, token, 100, 'KB');
    const before = await snapshot();
    const max = /maximum upload size of 100\.00 KB/;

    await expect413(
      await fsUpload(server, { token }, bytes(150 * KiB), { before: { path: '/local/up.bin' } }),
      max,
      'fs upload',
    );
    await expect413(
      await api('POST', '/api/fs/update', { path: '/local/edit.txt', content: 'x'.repeat(150 * KiB) }),
      max,
      'fs update',
    );
    await expect413(await api('POST', '/api/fs/presign', { path: '/s3/p.bin', fileSize: 150 * KiB }), max, 'presign');
    await expect413(
      await api('POST', '/api/fs/multipart/init', { path: '/local/m.bin', fileSize: 150 * KiB }),
      max,
      'multipart init',
    );
    await expect413(await dav('PUT', '/local/dav.bin', {}, bytes(150 * KiB)), max, 'WebDAV PUT');
    await expect413(await dav('PUT', '/s3/dav.bin', {}, bytes(150 * KiB)), max, 'WebDAV PUT (S3)');
    await expect413(
      await dav('COPY', '/local/src/big.bin', { destination: `${server.url}/dav/s3/copied.bin` }),
      max,
      'WebDAV COPY across storages',
    );
    await expect413(
      await dav('COPY', '/local/src/big.bin', { destination: `${server.url}/dav/local/copied.bin` }),
      max,
      'WebDAV COPY within a storage',
    );
    const task = await server.call<BatchCopyResult>('POST', '/api/fs/batch-copy', {
      token,
      body: { items: [{ sourcePath: '/local/src/big.bin', targetPath: '/s3/task.bin' }] },
    });
    expect(task.status, task.body.message).toBe(202);
    const done = await waitForTask(server, token, task.body.data!.task.id);
    expect(done.status).toBe('failed');
    expect(JSON.stringify(done)).toMatch(/maximum upload size/);
    expect(await snapshot()).toEqual(before);
    await setMaxUpload(server, token, 100, 'MB');
  });

  it("writes into a mount count against its storage config's total_capacity", async () => {
    await setMaxUpload(server, token, 100, 'MB');
    const put = await server.call('PUT', `/api/s3-configs/${localConfigId}`, {
      token,
      body: { total_capacity: 400 * KiB },
    });
    expect(put.status, put.body.message).toBe(200);
    // 150 KiB already there (src/big.bin); 200 more fit.
    expect((await fsUpload(server, { token }, bytes(200 * KiB), { before: { path: '/local/fits.bin' } })).status).toBe(
      201,
    );
    const before = await snapshot();
    const full = /insufficient storage: file size .* remaining space .* total capacity 400\.00 KB/;
    await expect413(
      await fsUpload(server, { token }, bytes(100 * KiB), { before: { path: '/local/more.bin' } }),
      /insufficient storage/,
      'fs upload',
    );
    await expect413(
      await api('POST', '/api/fs/update', { path: '/local/more.txt', content: 'y'.repeat(100 * KiB) }),
      full,
      'fs update',
    );
    await expect413(
      await api('POST', '/api/fs/multipart/init', { path: '/local/more-mp.bin', fileSize: 100 * KiB }),
      full,
      'multipart init',
    );
    await expect413(
      await dav('PUT', '/local/more-dav.bin', {}, bytes(100 * KiB)),
      /insufficient storage/,
      'WebDAV PUT',
    );
    await expect413(
      await dav('COPY', '/local/src/big.bin', { destination: `${server.url}/dav/local/again.bin` }),
      full,
      'WebDAV COPY',
    );
    await fsUpload(server, { token }, bytes(100 * KiB), { before: { path: '/s3/src.bin' } });
    const task = await server.call<BatchCopyResult>('POST', '/api/fs/batch-copy', {
      token,
      body: { items: [{ sourcePath: '/s3/src.bin', targetPath: '/local/from-s3.bin' }] },
    });
    const done = await waitForTask(server, token, task.body.data!.task.id);
    expect(done.status).toBe('failed');
    expect(JSON.stringify(done)).toMatch(/insufficient storage/);
    expect((await snapshot()).disk).toEqual(before.disk);

    // The capacity of an S3 storage too (presign).
    await server.call('PUT', `/api/s3-configs/${s3Config.id}`, { token, body: { total_capacity: 150 * KiB } });
    await expect413(
      await api('POST', '/api/fs/presign', { path: '/s3/p2.bin', fileSize: 100 * KiB }),
      /insufficient storage/,
      'presign',
    );
    // Room again after a removal.
    await server.call('PUT', `/api/s3-configs/${localConfigId}`, { token, body: { total_capacity: null } });
    expect((await fsUpload(server, { token }, bytes(100 * KiB), { before: { path: '/local/more.bin' } })).status).toBe(
      201,
    );
  });
});
