import type { FileView, OfficePreviewResult, PublicFileDetails, PublicFileInfo } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createS3Config, rawGet, startS3rver, upload, type S3rverHandle } from './support/fileShares.js';

const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

describe.each(dbTargets)('public file shares on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;
  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const share = async (content: string | Uint8Array, opts: Parameters<typeof upload>[2] = {}) => {
    const res = await upload(server, content, { token, ...opts });
    if (res.status !== 201) throw new Error(`upload failed ${res.status} ${res.body.message}`);
    return res.body.data!;
  };
  const info = (slug: string) => server.call<PublicFileInfo>('GET', `/api/public/files/${slug}`);
  const verify = (slug: string, password: string) =>
    server.call<PublicFileDetails>('POST', `/api/public/files/${slug}/verify`, { body: { password } });

  /** Today's daily counters (the stats service buffers counts in memory: write them first). */
  const dailyMetrics = async () => {
    await server.built.services.stats.flush();
    const rows = await server.built.database.db.selectFrom('daily_stats').selectAll().execute();
    return (m: string) => Number(rows.find((r) => r.metric === m)?.value ?? 0);
  };

  it('answers metadata, counts a view, and hands out token URLs that do not count more', async () => {
    const before = await dailyMetrics();
    const file = await share('0123456789', { filename: 'digits.txt', type: 'text/plain', fields: { remark: 'hi' } });
    const res = await info(file.slug);
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    const d = res.body.data as PublicFileDetails;
    expect(d).toMatchObject({
      slug: file.slug,
      requires_password: false,
      has_password: false,
      filename: 'digits.txt',
      size: 10,
      type: 'text',
      remark: 'hi',
      views: 1,
      inline_safe: true,
    });
    expect(JSON.stringify(d)).not.toContain('storage_path');
    const view = await rawGet(server, d.preview_url);
    expect(view.status).toBe(200);
    expect(view.text).toBe('0123456789');
    const dl = await rawGet(server, d.download_url);
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment; filename="digits.txt"/);
    const row = await server.call<FileView>('GET', `/api/files/${file.id}`, { token });
    expect(row.body.data?.views).toBe(1);
    // The dashboard's daily counters: the metadata answer and the inline preview are views, the attachment a download.
    const after = await dailyMetrics();
    expect(after('file_views') - before('file_views')).toBe(2);
    expect(after('file_downloads') - before('file_downloads')).toBe(1);
  });

  it('serves headers right: length, etag/304, last-modified, nosniff, RFC 5987 names', async () => {
    const file = await share('abcdef', { filename: 'naïve file.txt', type: 'text/plain' });
    const res = await rawGet(server, `/api/file-download/${file.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('6');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="naive file.txt"; filename*=UTF-8''na%C3%AFve%20file.txt`,
    );
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await rawGet(server, `/api/file-download/${file.slug}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const other = await rawGet(server, `/api/file-download/${file.slug}`, { 'if-none-match': '"nope"' });
    expect(other.status).toBe(200);
  });

  it('handles Range: first, last, suffix, open end, clamped end, past the end (416), malformed', async () => {
    const file = await share('0123456789', { filename: 'r.bin' });
    const get = (range: string) => rawGet(server, `/api/file-download/${file.slug}`, { range });
    const first = await get('bytes=0-0');
    expect(first.status).toBe(206);
    expect(first.text).toBe('0');
    expect(first.headers.get('content-range')).toBe('bytes 0-0/10');
    expect(first.headers.get('content-length')).toBe('1');
    const last = await get('bytes=9-9');
    expect([last.status, last.text]).toEqual([206, '9']);
    const suffix = await get('bytes=-3');
    expect([suffix.status, suffix.text, suffix.headers.get('content-range')]).toEqual([206, '789', 'bytes 7-9/10']);
    const open = await get('bytes=4-');
    expect([open.status, open.text]).toEqual([206, '456789']);
    const clamped = await get('bytes=8-100');
    expect([clamped.status, clamped.text, clamped.headers.get('content-range')]).toEqual([206, '89', 'bytes 8-9/10']);
    const big = await get('bytes=-100');
    expect([big.status, big.text]).toEqual([206, '0123456789']);
    for (const bad of ['bytes=10-', 'bytes=10-20', 'bytes=-0']) {
      const r = await get(bad);
      expect(r.status, bad).toBe(416);
      expect(r.headers.get('content-range')).toBe('bytes */10');
    }
    for (const ignored of ['bytes=5-2', 'bytes=0-1,4-5', 'items=0-1', 'bytes=abc']) {
      const r = await get(ignored);
      expect([r.status, r.text], ignored).toEqual([200, '0123456789']);
    }
    const ifRange = await rawGet(server, `/api/file-download/${file.slug}`, {
      range: 'bytes=0-0',
      'if-range': '"stale"',
    });
    expect(ifRange.status).toBe(200);
  });

  it('protects with a password: locked metadata, verify, ?password=, tokens', async () => {
    const file = await share('secret bytes', {
      filename: 's.txt',
      type: 'text/plain',
      fields: { password: 'open sesame' },
    });
    const locked = await info(file.slug);
    expect(locked.status).toBe(200);
    expect(locked.body.data).toEqual({ slug: file.slug, requires_password: true, has_password: true });
    const wrong = await verify(file.slug, 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('wrong password');
    const right = await verify(file.slug, 'open sesame');
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ filename: 's.txt', has_password: true, requires_password: false });
    expect((await rawGet(server, right.body.data!.preview_url)).text).toBe('secret bytes');
    expect((await rawGet(server, `/api/file-view/${file.slug}`)).status).toBe(401);
    expect((await rawGet(server, `/api/file-view/${file.slug}?password=nope`)).status).toBe(401);
    expect((await rawGet(server, `/api/file-view/${file.slug}?token=garbage`)).status).toBe(401);
    const tampered = right.body.data!.access_token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await rawGet(server, `/api/file-view/${file.slug}?token=${tampered}`)).status).toBe(401);
    const viaPassword = await rawGet(
      server,
      `/api/file-download/${file.slug}?password=${encodeURIComponent('open sesame')}`,
    );
    expect([viaPassword.status, viaPassword.text]).toEqual([200, 'secret bytes']);
    // a token of another share does not open this one
    const other = await share('other', { fields: { password: 'x' } });
    const otherToken = (await verify(other.slug, 'x')).body.data!.access_token;
    expect((await rawGet(server, `/api/file-view/${file.slug}?token=${otherToken}`)).status).toBe(401);
    // changing the password invalidates tokens
    await server.call('PUT', `/api/files/${file.id}`, { token, body: { password: 'new one' } });
    expect((await rawGet(server, right.body.data!.preview_url)).status).toBe(401);
  });

  it('counts views atomically: max views, 410 after, parallel viewers see exactly one success', async () => {
    const file = await share('v', { fields: { max_views: '2' } });
    expect((await info(file.slug)).status).toBe(200);
    const second = await info(file.slug);
    expect(second.status).toBe(200);
    const third = await info(file.slug);
    expect(third.status).toBe(410);
    expectEnvelope(third.body, 410);
    // the token of the last counted view still fetches the content
    expect((await rawGet(server, (second.body.data as PublicFileDetails).preview_url)).status).toBe(200);
    expect((await rawGet(server, `/api/file-download/${file.slug}`)).status).toBe(410);

    const one = await share('one', { fields: { max_views: '1' } });
    const results = await Promise.all(Array.from({ length: 12 }, () => info(one.slug)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 410)).toHaveLength(11);

    // a direct download link counts too
    const direct = await share('direct', { fields: { max_views: '1' } });
    expect((await rawGet(server, `/api/file-download/${direct.slug}`)).status).toBe(200);
    expect((await rawGet(server, `/api/file-download/${direct.slug}`)).status).toBe(410);
  });

  it('expires: 410 for metadata, content and tokens after expires_in hours', async () => {
    const file = await share('soon gone', { fields: { expires_in: '1' } });
    const d = (await info(file.slug)).body.data as PublicFileDetails;
    server.clock.advance(2 * 3600_000);
    try {
      expect((await info(file.slug)).status).toBe(410);
      expect((await rawGet(server, `/api/file-download/${file.slug}`)).status).toBe(410);
      expect((await rawGet(server, d.preview_url)).status).toBe(410);
    } finally {
      server.clock.advance(-2 * 3600_000);
    }
  });

  it('answers HEAD with the headers only and counts no view', async () => {
    const file = await share('0123456789', { fields: { max_views: '1' } });
    const head = await fetch(`${server.url}/api/file-download/${file.slug}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    const ranged = await fetch(`${server.url}/api/file-download/${file.slug}`, {
      method: 'HEAD',
      headers: { range: 'bytes=2-4' },
    });
    expect([ranged.status, ranged.headers.get('content-range')]).toEqual([206, 'bytes 2-4/10']);
    expect((await rawGet(server, `/api/file-download/${file.slug}`)).text).toBe('0123456789');
    expect((await rawGet(server, `/api/file-download/${file.slug}`)).status).toBe(410);
  });

  it('answers 404 for unknown or malformed slugs', async () => {
    for (const slug of ['nope-nope', '..%2f..%2fetc', '%00', 'x'.repeat(80)]) {
      expect((await info(slug)).status, slug).toBe(404);
      expect((await rawGet(server, `/api/file-download/${slug}`)).status, slug).toBe(404);
    }
    expect((await verify('nope-nope', 'x')).status).toBe(404);
    expect((await server.call('POST', '/api/public/files/x/verify', { body: {} })).status).toBe(400);
  });

  it('serves only script-free types inline; HTML, SVG, XML and unknown as sandboxed attachments', async () => {
    const png = await share(PNG, { filename: 'dot.png', type: 'image/png' });
    const img = await rawGet(server, `/api/file-view/${png.slug}`);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.from(img.body).equals(Buffer.from(PNG))).toBe(true);

    const md = await share('# hi <script>alert(1)</script>', { filename: 'x.md' });
    const mdView = await rawGet(server, `/api/file-view/${md.slug}`);
    expect(mdView.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(mdView.headers.get('content-disposition')).toMatch(/^inline;/);

    const pdf = await share('%PDF-1.4', { filename: 'a.pdf', type: 'application/pdf' });
    expect((await rawGet(server, `/api/file-view/${pdf.slug}`)).headers.get('content-type')).toBe('application/pdf');

    for (const [name, type] of [
      ['x.html', 'text/html'],
      ['x.svg', 'image/svg+xml'],
      ['x.xml', 'application/xml'],
      ['x.xhtml', 'application/xhtml+xml'],
      ['x.weird', 'application/x-unknown'],
    ] as const) {
      const f = await share('<html><script>alert(1)</script></html>', { filename: name, type });
      const r = await rawGet(server, `/api/file-view/${f.slug}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-disposition'), name).toMatch(/^attachment;/);
      expect(r.headers.get('content-security-policy'), name).toMatch(/^sandbox/);
      expect(r.headers.get('content-type'), name).toBe('application/octet-stream');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      const d = (await info(f.slug)).body.data as PublicFileDetails;
      expect(d.inline_safe).toBe(false);
    }
  });

  it('S3 shares: proxied when use_proxy, else a 302 to a short presigned URL', async () => {
    const config = await createS3Config(server, token, s3);
    const proxied = await share('via server', { fields: { s3_config_id: config.id, use_proxy: 'true' } });
    const p = await rawGet(server, `/api/file-download/${proxied.slug}`);
    expect([p.status, p.text]).toEqual([200, 'via server']);
    const ranged = await rawGet(server, `/api/file-download/${proxied.slug}`, { range: 'bytes=4-9' });
    expect([ranged.status, ranged.text]).toEqual([206, 'server']);

    const direct = await share('straight from s3', {
      filename: 'd.txt',
      type: 'text/plain',
      fields: { s3_config_id: config.id, use_proxy: 'false' },
    });
    const r = await rawGet(server, `/api/file-download/${direct.slug}`);
    expect(r.status).toBe(302);
    const location = r.headers.get('location')!;
    expect(location.startsWith(s3.endpoint)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=(\d+)/);
    expect(Number(/X-Amz-Expires=(\d+)/.exec(location)![1])).toBeLessThanOrEqual(3600);
    const fetched = await fetch(location);
    expect(await fetched.text()).toBe('straight from s3');

    // local storage is always proxied, even with use_proxy false
    const local = await share('local bytes', { fields: { use_proxy: 'false' } });
    expect((await rawGet(server, `/api/file-download/${local.slug}`)).status).toBe(200);

    // an object deleted behind our back → 404, not a 500
    const gone = await share('gone', { fields: { s3_config_id: config.id } });
    await fetch(`${s3.endpoint}/${s3.bucket}/${gone.storage_path.split('/').map(encodeURIComponent).join('/')}`, {
      method: 'DELETE',
    });
    expect((await rawGet(server, `/api/file-download/${gone.slug}`)).status).toBe(404);
  });

  it('gives office viewer URLs for a short-lived public link', async () => {
    const doc = await share('PK fake docx', {
      filename: 'r.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const d = (await info(doc.slug)).body.data as PublicFileDetails;
    const res = await server.call<OfficePreviewResult>(
      'GET',
      `/api/office-preview/${doc.slug}?token=${d.access_token}`,
    );
    expect(res.status).toBe(200);
    // Built in by default: a path on our own origin, no third-party viewer.
    expect(res.body.data?.provider).toBe('builtin');
    expect(res.body.data!.url.startsWith(`/api/file-download/${doc.slug}?token=`)).toBe(true);
    expect(await (await fetch(`${server.url}${res.body.data!.url}`)).text()).toBe('PK fake docx');

    await server.call('PUT', '/api/admin/settings/group/2', { token, body: { preview_office_provider: 'microsoft' } });
    const m = await server.call<OfficePreviewResult>('GET', `/api/office-preview/${doc.slug}?token=${d.access_token}`);
    expect(m.body.data?.provider).toBe('microsoft');
    const url = new URL(m.body.data!.url);
    expect(url.origin).toBe('https://view.officeapps.live.com');
    const src = url.searchParams.get('src')!;
    expect(src.startsWith(`${server.url}/api/file-download/${doc.slug}?token=`)).toBe(true);
    expect(await (await fetch(src)).text()).toBe('PK fake docx');

    await server.call('PUT', '/api/admin/settings/group/2', { token, body: { preview_office_provider: 'google' } });
    const g = await server.call<OfficePreviewResult>('GET', `/api/office-preview/${doc.slug}?token=${d.access_token}`);
    expect(new URL(g.body.data!.url).origin).toBe('https://docs.google.com');
    await server.call('PUT', '/api/admin/settings/group/2', { token, body: { preview_office_provider: 'microsoft' } });

    const locked = await share('x', { filename: 'l.docx', fields: { password: 'pw' } });
    expect((await server.call('GET', `/api/office-preview/${locked.slug}`)).status).toBe(401);
    expect((await server.call('GET', `/api/office-preview/${locked.slug}?password=pw`)).status).toBe(200);
    expect((await server.call('GET', '/api/office-preview/nope-nope')).status).toBe(404);
  });
});
