import type { FsEntryView, FsMultipartInit, FsPresignResult } from '@clipnest/contract';
import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { bucketSnapshot, diskSnapshot, fsRaw, type Auth } from './support/fsApi.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from './support/mounts.js';
import { MiB, testBytes } from './support/uploads.js';

const q = (path: string) => encodeURIComponent(path);

describe.each(dbTargets)('fs presign and multipart on %s', (target) => {
  let server: TestServer;
  let admin: Auth;
  let token: string;
  let s3: S3rverHandle;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    admin = { token };
    const localId = await mountableLocalConfig(server, token);
    const s3Config = await createS3Config(server, token, s3);
    await createMount(server, token, { path: '/local', storage_config_id: localId });
    await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const call = <T>(method: string, path: string, auth: Auth, body?: unknown) =>
    server.call<T>(method, path, { ...auth, ...(body !== undefined ? { body } : {}) });
  const download = async (path: string) => (await fsRaw(server, `/api/fs/download?path=${q(path)}`, admin)).bytes;

  it('presigns a PUT on S3, commits it into the tree (listing sees it), refuses local', async () => {
    await call('GET', '/api/fs/list?path=%2Fs3', admin); // fill the listing cache
    const bytes = testBytes(1000);
    const res = await call<FsPresignResult>('POST', '/api/fs/presign', admin, {
      path: '/s3/direct/',
      fileName: 'a.bin',
      contentType: 'application/octet-stream',
      fileSize: bytes.length,
    });
    expect(res.status, res.body.message).toBe(200);
    const { presignedUrl, targetPath, contentType } = res.body.data!;
    expect(targetPath).toBe('/s3/direct/a.bin');
    const put = await fetch(presignedUrl, { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
    expect(put.status).toBe(200);
    const wrongSize = await call('POST', '/api/fs/presign/commit', admin, { targetPath, fileSize: 5 });
    expect(wrongSize.status).toBe(400);
    const commit = await call<FsEntryView>('POST', '/api/fs/presign/commit', admin, {
      targetPath,
      fileSize: bytes.length,
      etag: put.headers.get('etag') ?? undefined,
    });
    expect(commit.status, commit.body.message).toBe(201);
    expect(commit.body.data).toMatchObject({ path: targetPath, size: 1000 });
    expect(Buffer.from(await download(targetPath)).equals(Buffer.from(bytes))).toBe(true);
    const listed = await call<{ items: FsEntryView[] }>('GET', '/api/fs/list?path=%2Fs3', admin);
    expect(listed.body.data?.items.map((i) => i.name)).toContain('direct');

    const missing = await call('POST', '/api/fs/presign/commit', admin, { targetPath: '/s3/direct/none.bin' });
    expect(missing.status).toBe(400);
    const local = await call('POST', '/api/fs/presign', admin, { path: '/local/a.bin', fileSize: 3 });
    expect(local.status).toBe(400);
    expect(local.body.message).toMatch(/failed to get presigned URL/);
  });

  it('runs a presigned multipart upload on S3', async () => {
    const bytes = testBytes(5 * MiB + 100, 7);
    const init = await call<FsMultipartInit>('POST', '/api/fs/multipart/init', admin, {
      path: '/s3/mp/big.bin',
      fileSize: bytes.length,
    });
    expect(init.status, init.body.message).toBe(200);
    const { uploadId, presignedUrls, partSize, partCount, presigned } = init.body.data!;
    expect([presigned, partSize, partCount, presignedUrls.length]).toEqual([true, 5 * MiB, 2, 2]);
    const refreshed = await call<{ presignedUrls: unknown[] }>('POST', '/api/fs/multipart/refresh-urls', admin, {
      path: '/s3/mp/big.bin',
      uploadId,
      partNumbers: [2],
    });
    expect(refreshed.body.data?.presignedUrls).toHaveLength(1);
    const parts = [];
    for (const { partNumber, url } of presignedUrls) {
      const chunk = bytes.subarray((partNumber - 1) * partSize, partNumber * partSize);
      const put = await fetch(url, { method: 'PUT', body: chunk });
      expect(put.status).toBe(200);
      parts.push({ PartNumber: partNumber, ETag: put.headers.get('etag')! });
    }
    const noEtag = await call('POST', '/api/fs/multipart/complete', admin, {
      path: '/s3/mp/big.bin',
      uploadId,
      parts: [{ PartNumber: 1 }],
    });
    expect(noEtag.status).toBe(400);
    expect(noEtag.body.message).toMatch(/no ETag obtained/);
    const done = await call<FsEntryView>('POST', '/api/fs/multipart/complete', admin, {
      path: '/s3/mp/big.bin',
      uploadId,
      parts,
    });
    expect(done.status, done.body.message).toBe(201);
    expect(done.body.data?.size).toBe(bytes.length);
    expect(Buffer.from(await download('/s3/mp/big.bin')).equals(Buffer.from(bytes))).toBe(true);
    // s3rver lacks ListParts: a clear 501, not a 500.
    const listParts = await call('POST', '/api/fs/multipart/list-parts', admin, { path: '/s3/mp/big.bin', uploadId });
    expect(listParts.status).toBe(501);
  });

  it('runs a multipart upload through the server on local storage, and aborts one', async () => {
    const bytes = testBytes(3000, 3);
    const init = await call<FsMultipartInit>('POST', '/api/fs/multipart/init', admin, {
      path: '/local/mp/',
      fileName: 'local.bin',
      fileSize: bytes.length,
      partSize: 1024,
    });
    expect(init.status, init.body.message).toBe(200);
    const { uploadId, partCount, presigned, path } = init.body.data!;
    expect([presigned, partCount, path]).toEqual([false, 3, '/local/mp/local.bin']);
    const parts = [];
    for (let n = 1; n <= partCount; n++) {
      const res = await fetch(
        `${server.url}/api/fs/multipart/part?path=${q(path)}&uploadId=${q(uploadId)}&partNumber=${n}`,
        {
          method: 'PUT',
          body: bytes.subarray((n - 1) * 1024, n * 1024),
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(res.status).toBe(200);
      parts.push({ PartNumber: n, ETag: res.headers.get('etag')! });
    }
    const listed = await call<{ parts: unknown[] }>('POST', '/api/fs/multipart/list-parts', admin, { path, uploadId });
    expect(listed.body.data?.parts).toHaveLength(3);
    const uploads = await call<{ uploads: Array<{ uploadId: string }> }>(
      'POST',
      '/api/fs/multipart/list-uploads',
      admin,
      { path: '/local/mp' },
    );
    expect(uploads.body.data?.uploads.map((u) => u.uploadId)).toContain(uploadId);
    const done = await call<FsEntryView>('POST', '/api/fs/multipart/complete', admin, { path, uploadId, parts });
    expect(done.status, done.body.message).toBe(201);
    expect(Buffer.from(await download(path)).equals(Buffer.from(bytes))).toBe(true);

    const other = await call<FsMultipartInit>('POST', '/api/fs/multipart/init', admin, {
      path: '/local/mp/gone.bin',
      fileSize: 10,
    });
    const abort = await call('POST', '/api/fs/multipart/abort', admin, {
      path: '/local/mp/gone.bin',
      uploadId: other.body.data!.uploadId,
    });
    expect(abort.status).toBe(200);
    expect((await call('GET', `/api/fs/get?path=${q('/local/mp/gone.bin')}`, admin)).status).toBe(404);
  });

  it('refuses traversal and missing rights in every path field, touching nothing', async () => {
    const before = { disk: diskSnapshot(server), bucket: await bucketSnapshot(s3) };
    for (const mount of ['/local', '/s3']) {
      for (const evil of [`${mount}/../x`, `${mount}/%2e%2e/x`, `${mount}\\x`, `${mount}/a\u0000`]) {
        const responses = [
          await call('POST', '/api/fs/presign', admin, { path: evil, fileSize: 1 }),
          await call('POST', '/api/fs/presign/commit', admin, { targetPath: evil }),
          await call('POST', '/api/fs/multipart/init', admin, { path: evil, fileSize: 1 }),
          await call('POST', '/api/fs/multipart/complete', admin, {
            path: evil,
            uploadId: 'x',
            parts: [{ PartNumber: 1, ETag: '"e"' }],
          }),
          await call('POST', '/api/fs/multipart/abort', admin, { path: evil, uploadId: 'x' }),
          await call('POST', '/api/fs/multipart/list-uploads', admin, { path: evil }),
          await call('POST', '/api/fs/multipart/list-parts', admin, { path: evil, uploadId: 'x' }),
          await call('POST', '/api/fs/multipart/refresh-urls', admin, { path: evil, uploadId: 'x', partNumbers: [1] }),
        ];
        for (const res of responses) expect(res.status, `${evil}: ${res.body.message}`).toBe(400);
        const part = await fetch(`${server.url}/api/fs/multipart/part?path=${q(evil)}&uploadId=x&partNumber=1`, {
          method: 'PUT',
          body: 'x',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(part.status).toBe(400);
      }
      const viewOnly: Auth = { apiKey: await createPathKey(server, token, Permission.MOUNT_VIEW) };
      const denied = await call('POST', '/api/fs/multipart/init', viewOnly, { path: `${mount}/v.bin`, fileSize: 1 });
      expect(denied.status).toBe(403);
      const confined: Auth = {
        apiKey: await createPathKey(server, token, Permission.MOUNT_UPLOAD, `${mount}/team`),
      };
      const outside = await call('POST', '/api/fs/presign', confined, { path: `${mount}/team-b/x.bin`, fileSize: 1 });
      expect(outside.status).toBe(403);
    }
    expect({ disk: diskSnapshot(server), bucket: await bucketSnapshot(s3) }).toEqual(before);
  });
});
