// Presigned direct upload: presign → PUT straight to s3rver → commit (verified against the stored
// object), forged commits, cancel, local storage refusal, and the storage-config CORS probe.
import type { FileView, PresignResult, StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { countFiles, createS3Config, rawGet } from './support/fileShares.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { fileShareKey, md5Hex, putBytes, testBytes } from './support/uploads.js';

describe.each(dbTargets)('presigned upload (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3Emulator;
  let config: StorageConfigView;

  beforeAll(async () => {
    s3 = await startS3rver({ bucket: 'presign-cors', cors: true });
    server = await startTestServer(target);
    token = await server.login();
    config = await createS3Config(server, token, { endpoint: s3.endpoint, bucket: s3.bucket, close: async () => {} });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const presign = (body: Record<string, unknown>, auth: { token?: string; apiKey?: string } = { token }) =>
    server.call<PresignResult>('POST', '/api/s3/presign', { ...auth, body: { s3_config_id: config.id, ...body } });

  it('presign → PUT → commit creates the share with the same bytes', async () => {
    const bytes = testBytes(70_000);
    const res = await presign({ filename: 'photo.bin', size: bytes.length, mimetype: 'image/png', remark: 'direct' });
    expectEnvelope(res.body, 200);
    const p = res.body.data!;
    expect(p).toMatchObject({ provider_type: 's3', contentType: 'image/png', slug: '' });
    expect(p.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/presign-cors\//);
    expect(p.storage_path).toMatch(/photo\.bin$/);
    const put = await putBytes(server, p.upload_url, bytes, { 'content-type': p.contentType });
    expect(put.status).toBe(200);
    expect(put.etag?.replace(/"/g, '')).toBe(md5Hex(bytes));
    const commit = await server.call<FileView>('POST', '/api/s3/commit', {
      token,
      body: { file_id: p.file_id, size: bytes.length, etag: put.etag, filename: 'ignored.txt' },
    });
    expectEnvelope(commit.body, 201);
    const view = commit.body.data!;
    expect(view).toMatchObject({ id: p.file_id, filename: 'photo.bin', size: bytes.length, remark: 'direct' });
    const download = await rawGet(server, `/api/file-download/${view.slug}`);
    const body =
      download.status === 302
        ? new Uint8Array(await (await fetch(download.headers.get('location')!)).arrayBuffer())
        : download.body;
    expect(md5Hex(body)).toBe(md5Hex(bytes));
    // A second commit of the same id: the session is gone.
    const again = await server.call('POST', '/api/s3/commit', { token, body: { file_id: p.file_id } });
    expect(again.status).toBe(404);
  });

  it('refuses forged commits: missing object, wrong size, wrong ETag, someone else’s upload', async () => {
    const before = await countFiles(server);
    const bytes = testBytes(1000, 2);
    // Missing: nothing was PUT.
    const missing = (await presign({ filename: 'a.bin', size: 1000 })).body.data!;
    const noObject = await server.call('POST', '/api/s3/commit', { token, body: { file_id: missing.file_id } });
    expect(noObject.status).toBe(400);
    expect(noObject.body.message).toMatch(/not found in the storage/);
    // Wrong size: the PUT carried fewer bytes than announced.
    const short = (await presign({ filename: 'b.bin', size: 1000 })).body.data!;
    await putBytes(server, short.upload_url, bytes.subarray(0, 999), { 'content-type': short.contentType });
    const wrongSize = await server.call('POST', '/api/s3/commit', { token, body: { file_id: short.file_id } });
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.message).toMatch(/999 bytes/);
    // Size in the commit differs from the presign.
    const claimed = await server.call('POST', '/api/s3/commit', { token, body: { file_id: short.file_id, size: 5 } });
    expect(claimed.status).toBe(400);
    // Wrong ETag.
    const tagged = (await presign({ filename: 'c.bin', size: 1000 })).body.data!;
    await putBytes(server, tagged.upload_url, bytes, { 'content-type': tagged.contentType });
    const wrongTag = await server.call('POST', '/api/s3/commit', {
      token,
      body: { file_id: tagged.file_id, etag: '"0123456789abcdef0123456789abcdef"' },
    });
    expect(wrongTag.status).toBe(400);
    expect(wrongTag.body.message).toMatch(/ETag/);
    // Someone else's file id: a key holder cannot commit (or cancel) the admin's upload.
    const other = await fileShareKey(server, token);
    const foreign = await server.call('POST', '/api/s3/commit', {
      apiKey: other.key,
      body: { file_id: tagged.file_id },
    });
    expect(foreign.status).toBe(403);
    expect(
      (await server.call('POST', '/api/s3/cancel', { apiKey: other.key, body: { file_id: tagged.file_id } })).status,
    ).toBe(403);
    // Unknown and malformed ids.
    expect((await server.call('POST', '/api/s3/commit', { token, body: { file_id: 'nope-nope-nope' } })).status).toBe(
      404,
    );
    expect((await server.call('POST', '/api/s3/commit', { token, body: {} })).status).toBe(400);
    expect(await countFiles(server)).toBe(before);
    // The owner still can commit the good one.
    expect((await server.call('POST', '/api/s3/commit', { token, body: { file_id: tagged.file_id } })).status).toBe(
      201,
    );
  });

  it('cancel drops the object and the session', async () => {
    const bytes = testBytes(500, 3);
    const p = (await presign({ filename: 'gone.bin', size: 500 })).body.data!;
    await putBytes(server, p.upload_url, bytes, { 'content-type': p.contentType });
    const cancel = await server.call('POST', '/api/s3/cancel', { token, body: { file_id: p.file_id } });
    expectEnvelope(cancel.body, 200);
    const head = await fetch(`${s3.endpoint}/${s3.bucket}/${p.storage_path}`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    expect((await server.call('POST', '/api/s3/commit', { token, body: { file_id: p.file_id } })).status).toBe(404);
  });

  it('validates presign input and checks the max size, slug and local storage', async () => {
    expect((await presign({ filename: '', size: 10 })).status).toBe(400);
    expect((await presign({ filename: 'x', size: 0 })).status).toBe(400);
    expect((await presign({ filename: 'x', size: 50 * 1024 * 1024 * 1024 * 1024 })).status).toBe(413);
    expect((await presign({ filename: '../..', size: 10 })).status).toBe(400);
    expect((await presign({ filename: 'x', size: 10, path: '../up' })).status).toBe(400);
    expect((await presign({ filename: 'x', size: 10 }, {})).status).toBe(401);
    const configs = await server.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs', { token });
    const local = configs.body.data!.items.find((c) => c.storage_type === 'local')!;
    const onLocal = await server.call('POST', '/api/s3/presign', {
      token,
      body: { s3_config_id: local.id, filename: 'x', size: 10 },
    });
    expect(onLocal.status).toBe(400);
    expect(onLocal.body).toMatchObject({ kind: 'validation' });
    expect(onLocal.body.message).toMatch(/direct uploads.*multipart/);
    const slugged = await presign({ filename: 'y', size: 10, slug: 'presign-slug' });
    expect(slugged.body.data!.slug).toBe('presign-slug');
  });

  it('the storage-config test reports whether the bucket CORS allows browser uploads', async () => {
    const open = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${config.id}/test`, { token });
    expect(open.body.data!.success).toBe(true);
    expect(open.body.data!.cors).toMatchObject({ success: true });

    const closed = await startS3rver({ bucket: 'no-cors' });
    try {
      const noCors = await createS3Config(server, token, {
        endpoint: closed.endpoint,
        bucket: closed.bucket,
        close: async () => {},
      });
      const result = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${noCors.id}/test`, { token });
      expect(result.body.data!.success).toBe(true); // the storage itself works
      const cors = result.body.data!.cors;
      expect(cors?.success).toBe(false);
      expect(cors?.message).toMatch(/CORS rules block browser uploads/);
    } finally {
      await closed.stop();
    }
  });
});
