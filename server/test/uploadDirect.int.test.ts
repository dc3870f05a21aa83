// PUT /api/upload-direct/{filename}: a curl-style raw body becomes a share; plain link by default,
// the FileView envelope with Accept: application/json; query options; auth and limits.
import type { ApiEnvelope, DirectUploadResult } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { countFiles, rawGet, setMaxUpload } from './support/fileShares.js';
import { fileShareKey, md5Hex, testBytes } from './support/uploads.js';

describe.each(dbTargets)('upload-direct (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    key = (await fileShareKey(server, token, 'curl')).key;
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  const put = (path: string, body: Uint8Array | string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/upload-direct/${path}`, {
      method: 'PUT',
      headers: { authorization: `ApiKey ${key}`, 'user-agent': 'curl/8.5.0', accept: '*/*', ...headers },
      body: body as Uint8Array<ArrayBuffer>,
    });

  it('answers the share link as text like curl -T expects, and the bytes come back', async () => {
    const bytes = testBytes(200_000, 4);
    const res = await put('backup%20file.tar.gz', bytes);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const link = (await res.text()).trim();
    expect(link).toMatch(new RegExp(`^${server.url}/file/[A-Za-z0-9]+$`));
    const slug = link.split('/').pop()!;
    const info = await server.call<{ filename: string; size: number }>('GET', `/api/public/files/${slug}`);
    expect(info.body.data).toMatchObject({ filename: 'backup file.tar.gz', size: bytes.length });
    const download = await rawGet(server, `/api/file-download/${slug}`);
    expect(md5Hex(download.body)).toBe(md5Hex(bytes));
  });

  it('answers JSON with options from the query', async () => {
    const res = await put('notes.md?password=hunter22&expires_in=2&max_views=5&slug=curl-notes', '# hi', {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    });
    const body = (await res.json()) as ApiEnvelope<DirectUploadResult>;
    expectEnvelope(body, 201);
    expect(body.data).toMatchObject({
      slug: 'curl-notes',
      filename: 'notes.md',
      mimetype: 'text/markdown',
      has_password: true,
      max_views: 5,
      url: `${server.url}/file/curl-notes`,
    });
    expect(body.data!.expires_at).not.toBeNull();
    const taken = await put('again.txt?slug=curl-notes', 'x', { accept: 'application/json' });
    expect(taken.status).toBe(409);
  });

  it('refuses bad requests with a clear 4xx and stores nothing', async () => {
    const before = await countFiles(server);
    expect((await fetch(`${server.url}/api/upload-direct/a.txt`, { method: 'PUT', body: 'x' })).status).toBe(401);
    expect((await put('a.txt', 'x', { authorization: 'ApiKey nope' })).status).toBe(401);
    expect((await put('empty.txt', '')).status).toBe(400);
    expect((await put('sub%2F..', 'x')).status).toBe(400);
    expect((await put('a.txt?max_views=-1', 'x')).status).toBe(400);
    expect((await put('a.txt?path=../../etc', 'x')).status).toBe(400);
    await setMaxUpload(server, token, 1, 'KB');
    try {
      const big = await put('big.bin', testBytes(5000));
      expect(big.status).toBe(413);
    } finally {
      await setMaxUpload(server, token, 100, 'MB');
    }
    expect(await countFiles(server)).toBe(before);
  });
});
