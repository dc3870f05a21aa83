// Upload from URL against a local test file server (ALLOW_PRIVATE_URLS=true so 127.0.0.1 is allowed):
// info (HEAD and ranged GET), the proxy for the client-side path, server-side fetch jobs with progress
// and cancel, url/multipart + url/presign flows, and the size limit on fetched bodies.
import type {
  FileView,
  MultipartInitResult,
  PresignResult,
  StorageConfigView,
  UrlFetchJob,
  UrlInfo,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { countFiles, createS3Config, rawGet, setMaxUpload } from './support/fileShares.js';
import { startRemoteFiles, type RemoteFileServer } from './support/remoteFiles.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { md5Hex, putBytes, sendParts, testBytes } from './support/uploads.js';

const report = testBytes(300_000, 9);
const notes = new TextEncoder().encode('# notes\n');

describe.each(dbTargets)('URL upload (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let remote: RemoteFileServer;
  let s3: S3Emulator;
  let s3Config: StorageConfigView;

  beforeAll(async () => {
    remote = await startRemoteFiles({
      'report 2026.pdf': { body: report, type: 'application/pdf' },
      'notes.md': { body: notes, type: 'text/plain; charset=utf-8' },
    });
    s3 = await startS3rver({ bucket: 'url-upload', cors: true });
    server = await startTestServer(target, { ALLOW_PRIVATE_URLS: 'true' });
    token = await server.login();
    s3Config = await createS3Config(server, token, { endpoint: s3.endpoint, bucket: s3.bucket, close: async () => {} });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await remote?.close();
    await s3?.stop();
  });

  const fileUrl = () => `${remote.url}/files/report%202026.pdf`;

  const waitJob = async (id: string): Promise<UrlFetchJob> => {
    for (let i = 0; i < 200; i++) {
      const res = await server.call<UrlFetchJob>('GET', `/api/url/jobs/${id}`, { token });
      if (res.body.data!.status !== 'downloading') return res.body.data!;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('job did not finish');
  };

  const download = async (view: FileView) => {
    const res = await rawGet(server, `/api/file-download/${view.slug}`);
    return res.status === 302
      ? new Uint8Array(await (await fetch(res.headers.get('location')!)).arrayBuffer())
      : res.body;
  };

  it('analyzes a URL: filename, size and type from HEAD, or from a ranged GET when HEAD is refused', async () => {
    const info = await server.call<UrlInfo>('POST', '/api/url/info', { token, body: { url: fileUrl() } });
    expectEnvelope(info.body, 200);
    expect(info.body.data).toMatchObject({
      filename: 'report 2026.pdf',
      size: report.length,
      mimetype: 'application/pdf',
      supports_range: true,
    });
    const viaRedirect = await server.call<UrlInfo>('POST', '/api/url/info', {
      token,
      body: { url: `${remote.url}/redirect?to=${encodeURIComponent(`/nohead/notes.md`)}` },
    });
    expect(viaRedirect.body.data).toMatchObject({ filename: 'notes.md', size: notes.length, mimetype: 'text/plain' });
    expect(viaRedirect.body.data!.final_url).toBe(`${remote.url}/nohead/notes.md`);
    const missing = await server.call('POST', '/api/url/info', { token, body: { url: `${remote.url}/files/nope` } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/answered 404/);
    expect((await server.call('POST', '/api/url/info', { body: { url: fileUrl() } })).status).toBe(401);
  });

  it('proxies the remote bytes for the client-side path, never as active content', async () => {
    const res = await fetch(`${server.url}/api/url/proxy?url=${encodeURIComponent(fileUrl())}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(res.headers.get('x-remote-content-type')).toBe('application/pdf');
    expect(md5Hex(new Uint8Array(await res.arrayBuffer()))).toBe(md5Hex(report));
  });

  it('fetches server-side into a share with progress', async () => {
    const start = await server.call<UrlFetchJob>('POST', '/api/url/fetch', {
      token,
      body: { url: fileUrl(), remark: 'from url', max_views: 3 },
    });
    expectEnvelope(start.body, 202);
    expect(start.body.data).toMatchObject({ status: 'downloading', total: report.length, filename: 'report 2026.pdf' });
    const job = await waitJob(start.body.data!.job_id);
    expect(job).toMatchObject({ status: 'completed', received: report.length, progress: 100 });
    expect(job.file).toMatchObject({
      filename: 'report 2026.pdf',
      size: report.length,
      remark: 'from url',
      max_views: 3,
    });
    expect(md5Hex(await download(job.file!))).toBe(md5Hex(report));
  });

  it('cancels a running fetch: no share, status cancelled', async () => {
    const before = await countFiles(server);
    const start = await server.call<UrlFetchJob>('POST', '/api/url/fetch', {
      token,
      body: { url: `${remote.url}/slow`, filename: 'slow.bin' },
    });
    expect(start.status).toBe(202);
    await new Promise((r) => setTimeout(r, 200));
    const cancel = await server.call<UrlFetchJob>('POST', '/api/url/cancel', {
      token,
      body: { file_id: start.body.data!.job_id },
    });
    expectEnvelope(cancel.body, 200);
    const job = await waitJob(start.body.data!.job_id);
    expect(job.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    expect(await countFiles(server)).toBe(before);
  });

  it('client-side path: url/multipart/init → parts → url/multipart/complete; url/presign → url/commit', async () => {
    const init = await server.call<MultipartInitResult>('POST', '/api/url/multipart/init', {
      token,
      body: { url: fileUrl(), size: report.length },
    });
    expectEnvelope(init.body, 200);
    await sendParts(server, token, init.body.data!, report, [1]);
    const done = await server.call<FileView>('POST', '/api/url/multipart/complete', {
      token,
      body: { file_id: init.body.data!.file_id },
    });
    expectEnvelope(done.body, 201);
    expect(done.body.data!.filename).toBe('report 2026.pdf');
    expect(md5Hex(await download(done.body.data!))).toBe(md5Hex(report));

    const presign = await server.call<PresignResult>('POST', '/api/url/presign', {
      token,
      body: { url: `${remote.url}/files/notes.md`, size: notes.length, s3_config_id: s3Config.id },
    });
    expectEnvelope(presign.body, 200);
    expect(presign.body.data!.contentType).toBe('text/markdown');
    await putBytes(server, presign.body.data!.upload_url, notes, { 'content-type': presign.body.data!.contentType });
    const commit = await server.call<FileView>('POST', '/api/url/commit', {
      token,
      body: { file_id: presign.body.data!.file_id },
    });
    expectEnvelope(commit.body, 201);
    expect(commit.body.data!.filename).toBe('notes.md');

    // Cancel of an unfinished client-side upload.
    const again = await server.call<MultipartInitResult>('POST', '/api/url/multipart/init', {
      token,
      body: { url: fileUrl(), size: report.length },
    });
    const abort = await server.call('POST', '/api/url/cancel', { token, body: { file_id: again.body.data!.file_id } });
    expect(abort.status).toBe(200);
    expect(
      (await server.call('POST', '/api/url/cancel', { token, body: { file_id: again.body.data!.file_id } })).status,
    ).toBe(404);
  });

  it('applies the max upload size to fetched bodies', async () => {
    await setMaxUpload(server, token, 100, 'KB');
    try {
      const before = await countFiles(server);
      const fetchRes = await server.call('POST', '/api/url/fetch', { token, body: { url: fileUrl() } });
      expect(fetchRes.status).toBe(413);
      const proxy = await fetch(`${server.url}/api/url/proxy?url=${encodeURIComponent(fileUrl())}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(proxy.status).toBe(413);
      expect(await countFiles(server)).toBe(before);
    } finally {
      await setMaxUpload(server, token, 100, 'MB');
    }
  });
});
