// CORS never lets another origin use an admin token or an API key: the API answers no Access-Control-* grant at
// all (the app shell is same-origin; presigned uploads talk to the bucket, whose CORS is the bucket's). For every
// API route of the app's own route table, and for WebDAV, a preflight from a foreign Origin asking for
// `Authorization` and the real request carrying an admin token from that Origin get no
// Access-Control-Allow-Origin (neither the origin echoed nor `*`), no Allow-Credentials and no Allow-Headers, so a
// browser on another site can neither send the token nor read the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { apiRoutes } from '../support/apiRoutes.js';
import { createKey } from '../support/pastes.js';

const ORIGINS = ['https://evil.example', 'null', 'http://127.0.0.1.evil.example', 'http://localhost:5173'];

describe.each(dbTargets)('CORS on %s', (target) => {
  let server: TestServer;
  let token: string;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer(target, { PUBLIC_URL: 'https://clipnest.example' });
    token = await server.login();
    apiKey = await createKey(server, token, 'cors', 1);
  });
  afterAll(async () => {
    await server?.close();
  });

  function grants(headers: Headers): string[] {
    return [...headers.keys()].filter((name) => name.startsWith('access-control-allow'));
  }

  it('no route grants a foreign origin anything, preflight or real request, with a token or a key', async () => {
    const routes = apiRoutes(server.built.app);
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    let tried = 0;
    for (const [i, route] of routes.entries()) {
      const url = server.url + route.path.replace(/:[A-Za-z_]+/g, 'x');
      const origin = ORIGINS[i % ORIGINS.length]!;
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': route.method,
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      await preflight.arrayBuffer();
      tried++;
      if (grants(preflight.headers).length > 0)
        failures.push(`OPTIONS ${route.path}: ${grants(preflight.headers).join(', ')}`);
      // The real request (a browser sends simple GETs without a preflight): nothing lets the page read it.
      if (route.method !== 'GET') continue;
      for (const authorization of [`Bearer ${token}`, `ApiKey ${apiKey}`]) {
        const real = await fetch(url, { headers: { origin, authorization } });
        await real.arrayBuffer();
        tried++;
        if (grants(real.headers).length > 0) failures.push(`GET ${route.path}: ${grants(real.headers).join(', ')}`);
      }
    }
    // WebDAV: its OPTIONS answers DAV capabilities, never CORS grants.
    const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    for (const [method, headers] of [
      ['OPTIONS', { 'access-control-request-method': 'PROPFIND', 'access-control-request-headers': 'authorization' }],
      ['PROPFIND', { authorization: basic, depth: '0' }],
      ['GET', { authorization: basic }],
    ] as const) {
      const res = await fetch(`${server.url}/dav/`, { method, headers: { origin: ORIGINS[0]!, ...headers } });
      await res.arrayBuffer();
      tried++;
      if (grants(res.headers).length > 0) failures.push(`${method} /dav/: ${grants(res.headers).join(', ')}`);
    }
    expect(failures).toEqual([]);
    console.log(`[security] CORS on ${target}: ${tried} cases tried, ${tried - failures.length} passed`);
  }, 120_000);

  it('the token still works from the same origin (the answers above were not refusals by accident)', async () => {
    const res = await server.call('GET', '/api/admin/api-keys', {
      token,
      headers: { origin: 'https://clipnest.example' },
    });
    expect(res.status).toBe(200);
  });
});
