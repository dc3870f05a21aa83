// Issue 34 point 9: /api/fs/presign on an S3 mount answered a PUT URL that lived as long as the mount's link
// expiry (up to 7 days), signed no length, and its commit could be repeated. It now does what share uploads do:
// minutes of life, Content-Length and Content-Type signed, and a commit that is accepted once, by the caller who
// presigned, for the presigned size. s3rver checks no signature (TOOLING.md) and moto 5.2 checks only the
// Authorization header, not presigned query signatures: the URL is verified by recomputing SigV4 as S3 does.
import { Permission, type FsPresignResult } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, type S3rverHandle } from '../support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, createPathKey } from '../support/mounts.js';
import { s3WouldAccept } from '../support/sigv4.js';

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const WEEK = 7 * 86_400;

describe.each(dbTargets)('fs presign on S3 mounts on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;
  let token: string;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    const config = await createS3Config(server, token, s3);
    await createMount(server, token, {
      path: '/s3',
      storage_config_id: config.id,
      cache_ttl: 0,
      enable_sign: true,
      sign_expires: WEEK,
    });
    keyA = await createPathKey(server, token, Permission.MOUNT_UPLOAD | Permission.MOUNT_VIEW, '/s3');
    keyB = await createPathKey(server, token, Permission.MOUNT_UPLOAD | Permission.MOUNT_VIEW, '/s3');
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const presign = (apiKey: string, path: string, fileSize: number, contentType = 'application/pdf') =>
    server.call<FsPresignResult>('POST', '/api/fs/presign', { apiKey, body: { path, contentType, fileSize } });
  const commit = (apiKey: string, targetPath: string, fileSize?: number) =>
    server.call('POST', '/api/fs/presign/commit', {
      apiKey,
      body: { targetPath, ...(fileSize !== undefined ? { fileSize } : {}) },
    });

  it('issues a URL of minutes (not the mount link expiry) that signs the length and the type', async () => {
    const res = await presign(keyA, '/s3/up/report.pdf', 10);
    expect(res.status, res.body.message).toBe(200);
    const { presignedUrl, expires_in } = res.body.data!;
    const q = new URL(presignedUrl).searchParams;
    const expires = Number(q.get('X-Amz-Expires'));
    expect(expires).toBeLessThanOrEqual(10 * 60);
    expect(expires_in).toBe(expires);
    expect(q.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host']);
    const ok = { 'content-length': '10', 'content-type': 'application/pdf' };
    expect(await s3WouldAccept(presignedUrl, ok, CREDENTIALS)).toBe(true);
    expect(await s3WouldAccept(presignedUrl, { ...ok, 'content-length': String(3 * 1024 * 1024) }, CREDENTIALS)).toBe(
      false,
    );
    expect(await s3WouldAccept(presignedUrl, { ...ok, 'content-type': 'text/html' }, CREDENTIALS)).toBe(false);
  });

  it('accepts the commit once, only from who presigned, and only for the presigned size', async () => {
    const path = '/s3/up/once.pdf';
    const { presignedUrl, contentType } = (await presign(keyA, path, 10)).body.data!;
    const put = await fetch(presignedUrl, {
      method: 'PUT',
      body: '0123456789',
      headers: { 'content-type': contentType },
    });
    expect(put.status).toBe(200);
    expect((await commit(keyB, path, 10)).status).toBe(400);
    expect((await commit(keyA, path, 11)).status).toBe(400);
    const first = await commit(keyA, path, 10);
    expect(first.status, first.body.message).toBe(201);
    const again = await commit(keyA, path, 10);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/awaits a commit|already committed/);
    // Nor by the admin.
    expect((await server.call('POST', '/api/fs/presign/commit', { token, body: { targetPath: path } })).status).toBe(
      400,
    );
    // Never presigned at all.
    expect((await commit(keyA, '/s3/up/never.pdf')).status).toBe(400);
  });

  it('refuses a commit of other bytes than presigned and leaves nothing behind; a retried PUT commits', async () => {
    const path = '/s3/up/size.pdf';
    const { presignedUrl, contentType } = (await presign(keyA, path, 10)).body.data!;
    // s3rver checks no signature: the oversized PUT lands, the commit is what refuses it.
    const big = await fetch(presignedUrl, {
      method: 'PUT',
      body: 'x'.repeat(4096),
      headers: { 'content-type': contentType },
    });
    expect(big.status).toBe(200);
    const refused = await commit(keyA, path);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/4096 bytes, but 10 were announced/);
    const after = await server.call('GET', `/api/fs/get?path=${encodeURIComponent(path)}`, { token });
    expect(after.status).toBe(404);
    const retry = await fetch(presignedUrl, {
      method: 'PUT',
      body: '0123456789',
      headers: { 'content-type': contentType },
    });
    expect(retry.status).toBe(200);
    expect((await commit(keyA, path)).status).toBe(201);
  });
});
