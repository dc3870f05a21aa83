// A committed share serves only the object committed (issue 16, point 3): presigned PUT URLs sign length
// and type and expire soon; a second PUT to the URL (s3rver checks no signature, so it lands) is never
// served, proxied or redirected. And a one-time share is seen once (point 4): HEAD counts no view on any
// public file route, and office preview tokens cannot be refreshed past the view that minted them.
import type { FileView, OfficePreviewResult, PresignResult, PublicFileDetails } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, rawGet, upload } from './support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { putBytes } from './support/uploads.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe.each(dbTargets)('share integrity and one-time shares (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3Emulator;
  let configId: string;

  beforeAll(async () => {
    s3 = await startS3rver({ bucket: 'integrity' });
    server = await startTestServer(target);
    token = await server.login();
    configId = (
      await createS3Config(server, token, { endpoint: s3.endpoint, bucket: s3.bucket, close: async () => {} })
    ).id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const noRedirect = (path: string, method = 'GET') =>
    fetch(server.url + path, { method, redirect: 'manual' as const });

  /** presign → PUT → commit of `content` as text/plain; answers the share and the (still live) PUT URL. */
  const directShare = async (content: string, fields: Record<string, unknown> = {}) => {
    const bytes = new TextEncoder().encode(content);
    const presign = await server.call<PresignResult>('POST', '/api/s3/presign', {
      token,
      body: { s3_config_id: configId, filename: 'note.txt', mimetype: 'text/plain', size: bytes.length, ...fields },
    });
    expect(presign.status).toBe(200);
    const p = presign.body.data!;
    expect((await putBytes(server, p.upload_url, bytes, { 'content-type': p.contentType })).status).toBe(200);
    const commit = await server.call<FileView>('POST', '/api/s3/commit', { token, body: { file_id: p.file_id } });
    expect(commit.status).toBe(201);
    return { share: commit.body.data!, presign: p };
  };

  it('presigned PUT URLs sign length and type and expire with the upload', async () => {
    const res = await server.call<PresignResult>('POST', '/api/s3/presign', {
      token,
      body: { s3_config_id: configId, filename: 'a.txt', mimetype: 'text/plain', size: 10 },
    });
    const p = res.body.data!;
    const q = new URL(p.upload_url).searchParams;
    expect(q.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host']);
    // 5 minutes plus a second per MiB: not the config's hour.
    expect(p.expires_in).toBe(301);
    expect(q.get('X-Amz-Expires')).toBe('301');
  });

  it('a second PUT to a committed URL is never served (proxied share)', async () => {
    const { share, presign } = await directShare('0123456789', { use_proxy: true });
    expect(share.etag).toBeTruthy();
    const first = await rawGet(server, `/api/file-download/${share.slug}`);
    expect(first.status).toBe(200);
    expect(first.text).toBe('0123456789');
    // 3 MB of HTML through the same URL (a real S3 refuses it on the signature; s3rver takes it).
    const html = new TextEncoder().encode(`<script>alert(1)</script>${'x'.repeat(3 * 1024 * 1024)}`);
    expect((await putBytes(server, presign.upload_url, html, { 'content-type': 'text/html' })).status).toBe(200);
    for (const path of [`/api/file-download/${share.slug}`, `/api/file-view/${share.slug}`]) {
      const res = await rawGet(server, path);
      expect(res.status).toBe(409);
      expect(res.text).not.toContain('<script>');
      expect(JSON.parse(res.text).message).toMatch(/no longer matches the shared file/);
    }
    const ranged = await rawGet(server, `/api/file-download/${share.slug}`, { range: 'bytes=0-9' });
    expect(ranged.status).toBe(409);
  });

  it('a same-size replacement is caught by the ETag, and redirects are checked with a HEAD first', async () => {
    const { share, presign } = await directShare('original!!', { use_proxy: false });
    const ok = await noRedirect(`/api/file-download/${share.slug}`);
    expect(ok.status).toBe(302);
    // Same length, same type, other bytes: passes any signature, not the recorded ETag.
    expect(
      (
        await putBytes(server, presign.upload_url, new TextEncoder().encode('swapped!!!'), {
          'content-type': 'text/plain',
        })
      ).status,
    ).toBe(200);
    const res = await noRedirect(`/api/file-download/${share.slug}`);
    expect(res.status).toBe(409);
    expect(res.headers.get('location')).toBeNull();
  });

  it('HEAD leaves a max-views-1 share viewable on every public route', async () => {
    const file = await upload(server, 'once only', { token, filename: 'once.txt', fields: { max_views: '1' } });
    expect(file.status).toBe(201);
    const slug = file.body.data!.slug;
    for (const path of [
      `/api/public/files/${slug}`,
      `/api/file-download/${slug}`,
      `/api/file-view/${slug}`,
      `/api/office-preview/${slug}`,
    ]) {
      for (let i = 0; i < 3; i++) expect((await fetch(server.url + path, { method: 'HEAD' })).status).toBe(200);
    }
    const view = await server.call<PublicFileDetails>('GET', `/api/public/files/${slug}`);
    expect(view.status).toBe(200);
    expect(view.body.data!.views).toBe(1);
    expect((await server.call('GET', `/api/public/files/${slug}`)).status).toBe(410);
    expect((await fetch(`${server.url}/api/public/files/${slug}`, { method: 'HEAD' })).status).toBe(410);
    expect((await fetch(`${server.url}/api/public/files/no-such-share`, { method: 'HEAD' })).status).toBe(404);
  });

  it('HEAD of a redirected S3 share counts no view and hands out no URL', async () => {
    const { share } = await directShare('redirected', { use_proxy: false, max_views: 1 });
    const head = await noRedirect(`/api/file-download/${share.slug}`, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('location')).toBeNull();
    expect(head.headers.get('content-length')).toBe('10');
    expect((await noRedirect(`/api/file-download/${share.slug}`)).status).toBe(302);
    expect((await noRedirect(`/api/file-download/${share.slug}`)).status).toBe(410);
  });

  it('office preview tokens cannot be refreshed past the view that minted them', async () => {
    const file = await upload(server, 'PK docx', { token, filename: 'r.docx', type: DOCX, fields: { max_views: '1' } });
    const slug = file.body.data!.slug;
    const details = (await server.call<PublicFileDetails>('GET', `/api/public/files/${slug}`)).body.data!;
    const preview = async (query: string) =>
      server.call<OfficePreviewResult>('GET', `/api/office-preview/${slug}?${query}`);
    // The built-in provider (default) answers a path on our origin carrying the preview token.
    const tokenOf = (res: Awaited<ReturnType<typeof preview>>) =>
      new URL(res.body.data!.url, server.url).searchParams.get('token')!;

    const first = await preview(`token=${encodeURIComponent(details.access_token)}`);
    expect(first.status).toBe(200);
    const previewToken = tokenOf(first);
    expect((await rawGet(server, `/api/file-download/${slug}?token=${encodeURIComponent(previewToken)}`)).text).toBe(
      'PK docx',
    );
    // A preview token cannot mint another.
    const refresh = await preview(`token=${encodeURIComponent(previewToken)}`);
    expect(refresh.status).toBe(403);
    expect(refresh.body.message).toMatch(/cannot open another preview/);

    // Minted late from the access token, a preview link ends with the access token, not an hour later.
    const accessExpiry = Date.parse(first.body.data!.expires_at) + 2 * 3600_000; // access tokens live 3 h
    server.clock.advance(2.5 * 3600_000);
    const late = await preview(`token=${encodeURIComponent(details.access_token)}`);
    expect(late.status).toBe(200);
    expect(Math.abs(Date.parse(late.body.data!.expires_at) - accessExpiry)).toBeLessThan(5000);
    const lateToken = tokenOf(late);

    // Past the access token: nothing opens the share again, the views are used up.
    server.clock.advance(3600_000);
    expect((await preview(`token=${encodeURIComponent(details.access_token)}`)).status).toBe(410);
    expect((await rawGet(server, `/api/file-download/${slug}?token=${encodeURIComponent(lateToken)}`)).status).toBe(
      410,
    );
    expect((await rawGet(server, `/api/file-download/${slug}?token=${encodeURIComponent(previewToken)}`)).status).toBe(
      410,
    );
  });

  it('a password-opened preview counts the one view, and the next is refused', async () => {
    const file = await upload(server, 'PK locked', {
      token,
      filename: 'l.docx',
      type: DOCX,
      fields: { max_views: '1', password: 'pw' },
    });
    const slug = file.body.data!.slug;
    expect((await fetch(`${server.url}/api/office-preview/${slug}?password=pw`, { method: 'HEAD' })).status).toBe(200);
    expect((await server.call('GET', `/api/office-preview/${slug}?password=pw`)).status).toBe(200);
    expect((await server.call('GET', `/api/office-preview/${slug}?password=pw`)).status).toBe(410);
  });
});
