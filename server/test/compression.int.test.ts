import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import type { PasteCreated, PublicFileDetails } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness.js';
import { upload } from './support/fileShares.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that shows the bytes on the wire (fetch would decode them). */
function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(answer: RawAnswer): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(answer.body).toString('utf8');
  if (coding === 'gzip') return zlib.gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};\n`;

describe('precompressed web assets', () => {
  let server: TestServer;
  beforeAll(async () => {
    const dist = path.join(process.env.TMPDIR ?? '/tmp', `clipnest-dist-gz-${process.pid}`);
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Clipnest</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), SCRIPT);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(SCRIPT));
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(SCRIPT));
    writeFileSync(path.join(dist, 'assets', 'plain-abc123.js'), 'console.log(1)');
    server = await startTestServer('sqlite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await server?.close();
  });

  const asset = (acceptEncoding?: string, method = 'GET') =>
    rawRequest(
      `${server.url}/assets/app-abc123.js`,
      acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      method,
    );

  it('sends the variant the client prefers, with Vary, its length and the immutable caching', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
    ];
    for (const [accept, coding] of cases) {
      const res = await asset(accept);
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(res.headers['content-type'], accept).toMatch(/javascript/);
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length']), accept).toBe(res.body.byteLength);
      expect(decode(res), accept).toBe(SCRIPT);
    }
    expect((await asset('br')).body.byteLength).toBeLessThan(SCRIPT.length / 2);
  });

  it('answers HEAD with the headers of the variant and no body', async () => {
    const res = await asset('br', 'HEAD');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body.byteLength).toBe(0);
  });

  it('compresses the app page per answer (fresh nonce) as the client accepts, with Vary', async () => {
    for (const [accept, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const res = await rawRequest(`${server.url}/paste/abc`, accept ? { 'accept-encoding': accept } : {});
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(res.headers['content-type'], accept).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], accept).toMatch(/'nonce-/);
      const html = decode(res);
      // The root holds the page's first paint (http/sharePrepaint.ts).
      expect(html, accept).toContain('<div id="root">');
      expect(html, accept).toMatch(/<meta name="clipnest-csp-nonce" content="[^"]+"/);
    }
  });

  it('sends files without a precompressed variant as they are, without Vary', async () => {
    const res = await rawRequest(`${server.url}/assets/plain-abc123.js`, { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.toString()).toBe('console.log(1)');
  });
});

describe('compressed JSON answers', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const content = 'lorem ipsum dolor sit amet '.repeat(200);
  const createPaste = async () =>
    (await server.call<PasteCreated>('POST', '/api/paste', { token, body: { content } })).body.data!.slug;

  it('compresses an envelope above 1 KB as the client accepts, and decodes to the same JSON', async () => {
    const slug = await createPaste();
    for (const [accept, coding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await rawRequest(`${server.url}/api/paste/${slug}`, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Number(res.headers['content-length'])).toBe(res.body.byteLength);
      expect(res.body.byteLength).toBeLessThan(content.length / 4);
      const body = JSON.parse(decode(res)) as { data: { content: string } };
      expect(body.data.content).toBe(content);
    }
    const plain = await rawRequest(`${server.url}/api/paste/${slug}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(plain.body.toString()) as { data: { content: string } }).data.content).toBe(content);
  });

  it('compresses large envelopes too (off the request thread), both codings', async () => {
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i}: ${'abc'.repeat(i % 7)}`).join('\n');
    const slug = (await server.call<PasteCreated>('POST', '/api/paste', { token, body: { content: big } })).body.data!
      .slug;
    for (const coding of ['br', 'gzip'] as const) {
      const res = await rawRequest(`${server.url}/api/paste/${slug}`, { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.body.byteLength).toBeLessThan(big.length / 4);
      expect((JSON.parse(decode(res)) as { data: { content: string } }).data.content).toBe(big);
    }
  });

  it('leaves small envelopes and error envelopes under the threshold alone', async () => {
    const health = await rawRequest(`${server.url}/api/health`, { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString())).toMatchObject({ success: true });
    const missing = await rawRequest(`${server.url}/api/paste/no-such-paste`, { 'accept-encoding': 'br, gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses raw text, file downloads (JSON files included) or Range answers', async () => {
    const slug = await createPaste();
    const raw = await rawRequest(`${server.url}/api/raw/${slug}`, { 'accept-encoding': 'br, gzip' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body.toString()).toBe(content);

    const json = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, name: `row ${i}` })) });
    const uploaded = await upload(server, json, { token, filename: 'data.json', type: 'application/json' });
    expect(uploaded.status).toBe(201);
    const info = await server.call<PublicFileDetails>('GET', `/api/public/files/${uploaded.body.data!.slug}`);
    for (const url of [info.body.data!.preview_url, info.body.data!.download_url]) {
      const download = await rawRequest(server.url + url, { 'accept-encoding': 'br, gzip' });
      expect(download.status).toBe(200);
      expect(download.headers['content-disposition']).toBeDefined();
      expect(download.headers['content-encoding']).toBeUndefined();
      expect(download.body.toString()).toBe(json);
    }

    const range = await rawRequest(server.url + info.body.data!.download_url, {
      'accept-encoding': 'br, gzip',
      range: 'bytes=0-1499',
    });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString()).toBe(json.slice(0, 1500));
  });
});
