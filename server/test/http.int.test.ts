import type { ApiEnvelope } from '@clipnest/contract';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, snapshotTable, startTestServer, type TestServer } from './support/harness.js';
import { withAdminServer } from './support/adminServer.js';

describe.each(dbTargets)('HTTP envelope and errors on %s', (target) => {
  let server: TestServer;
  let token: string;
  withAdminServer(target, (started) => ({ server, token } = started));

  it('answers version and health in the envelope', async () => {
    const version = await server.call<{ name: string; version: string; database: string }>('GET', '/api/version');
    expect(version.status).toBe(200);
    expectEnvelope(version.body, 200);
    expect(version.body.data).toMatchObject({ name: 'clipnest', database: target });
    const health = await server.call<{ status: string; database: string }>('GET', '/api/health');
    expect(health.body.data).toMatchObject({ status: 'ok', database: 'ok' });
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(health.headers.get('cache-control')).toBe('no-store');
  });

  it('answers unknown API routes with a 404 envelope naming the route', async () => {
    for (const [method, route] of [
      ['GET', '/api/nope'],
      ['DELETE', '/api/version'],
      ['POST', '/api/admin/api-keys/x/y'],
    ] as const) {
      const res = await server.call(method, route, { token });
      expect(res.status).toBe(404);
      expectEnvelope(res.body, 404);
      expect(res.body.message).toContain(route);
    }
  });

  it('rejects malformed JSON, a wrong content type and an oversized body without writing', async () => {
    const before = await snapshotTable(server, 'api_keys');
    const malformed = await server.call('POST', '/api/admin/api-keys', {
      token,
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/malformed JSON/);

    const wrongType = await server.call('POST', '/api/admin/api-keys', {
      token,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expectEnvelope(wrongType.body, 415);
    expect(wrongType.body.message).toMatch(/application\/json/);

    const big = JSON.stringify({ name: 'big', custom_key: 'k'.repeat(2 * 1024 * 1024) });
    const oversized = await server.call('POST', '/api/admin/api-keys', {
      token,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(oversized.status).toBe(413);
    expectEnvelope(oversized.body, 413);

    const notAnObject = await server.call('POST', '/api/admin/api-keys', { token, body: [1, 2] });
    expect(notAnObject.status).toBe(400);
    const nullBody = await server.call('POST', '/api/admin/api-keys', { token, body: null });
    expect(nullBody.status).toBe(400);
    expect(await snapshotTable(server, 'api_keys')).toEqual(before);
  });

  it('refuses an oversized chunked body without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expectEnvelope((await res.json()) as ApiEnvelope, 413);
  });

  it('never leaks a stack trace', async () => {
    const res = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '\u0000\u0001',
    });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('web app serving', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says how to build when web/dist is missing', async () => {
    const res = await fetch(`${server.url}/admin`);
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/npm run build/);
  });
});

describe('web app serving with a build', () => {
  let server: TestServer;
  beforeAll(async () => {
    const dist = path.join(process.env.TMPDIR ?? '/tmp', `clipnest-dist-${process.pid}`);
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Clipnest</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    server = await startTestServer('sqlite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves files, falls back to index.html for app routes, 404s missing assets', async () => {
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    for (const route of [
      '/',
      '/admin/key-management',
      '/paste/abc',
      '/no/such/page',
      // Explorer deep links carry names of the tree, dots included.
      '/mount-explorer/local/v1.2',
      '/mount-explorer/local/docs/readme.txt?preview=%2Flocal%2Fdocs%2Freadme.txt',
    ]) {
      const res = await fetch(server.url + route);
      expect(res.status, route).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    expect((await fetch(`${server.url}/assets/missing-000.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/../../etc/passwd`)).status).toBe(200); // normalised to the SPA, never the file
    expect(await (await fetch(`${server.url}/%2e%2e/%2e%2e/etc/passwd`)).text()).not.toContain('root:');
  });
});
