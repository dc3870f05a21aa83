// The OpenAPI document describes exactly the routes the server serves: the app's real route table (Hono's
// app.routes) is walked, and a route without a description (or a description without a route) fails here.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/http/openapi/document.js';
import { allOperations, OPERATION_FILES } from '../src/http/openapi/operations/index.js';
import { servedOperations } from '../src/http/openapi/routeKey.js';
import { withAdminServer } from './support/adminServer.js';
import type { TestServer } from './support/harness.js';
import { answerChecker, type JsonValue } from './support/openapiSchemas.js';

/** The registry file whose keys share the longest path prefix with `key`: where a new route most likely belongs. */
function likelyFile(key: string): string {
  const path = key.split(' ')[1] ?? '';
  let best = { file: 'a new file listed in operations/index.ts', length: '/api/'.length };
  for (const [file, operations] of Object.entries(OPERATION_FILES)) {
    for (const other of Object.keys(operations)) {
      const otherPath = other.split(' ')[1] ?? '';
      let n = 0;
      while (n < path.length && path[n] === otherPath[n]) n++;
      if (n > best.length) best = { file, length: n };
    }
  }
  return best.file;
}

describe('the OpenAPI document and the route table', () => {
  let server: TestServer;
  let token: string;
  withAdminServer('sqlite', (started) => ({ server, token } = started));

  it('describes every /api route the app serves, and no route it does not serve', () => {
    const served = servedOperations(server.built.app.routes);
    expect(served.length).toBeGreaterThan(100);
    const described = allOperations();
    const missing = served
      .filter((key) => !(key in described))
      .map(
        (key) =>
          `${key} is served but not described: add '${key}': { summary, tag, access, query/body, answer } to ` +
          `server/src/http/openapi/operations/${likelyFile(key)} (the file of its route group)`,
      );
    const gone = Object.keys(described)
      .filter((key) => !served.includes(key))
      .map(
        (key) =>
          `${key} is described but the app does not serve it: remove it from server/src/http/openapi/operations/`,
      );
    expect([...missing, ...gone]).toEqual([]);
  });

  it('gives every operation a summary, a success answer, error answers with the envelope, and security', () => {
    const document = buildOpenApiDocument(allOperations(), { title: 'Clipnest', version: '0' });
    const paths = document.paths as Record<string, Record<string, JsonValue>>;
    const problems: string[] = [];
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const label = `${method.toUpperCase()} ${path}`;
        const responses = op.responses as Record<string, JsonValue>;
        if (!op.summary) problems.push(`${label}: no summary`);
        if (!Object.keys(responses).some((s) => /^2\d\d$/.test(s))) problems.push(`${label}: no success answer`);
        if (!responses.default) problems.push(`${label}: no default error answer`);
        if (!Array.isArray(op.security)) problems.push(`${label}: no security`);
        for (const name of (path.match(/\{[^}]+\}/g) ?? []).map((p) => p.slice(1, -1))) {
          const params = (op.parameters ?? []) as { name: string; in: string }[];
          if (!params.some((p) => p.in === 'path' && p.name === name)) problems.push(`${label}: no parameter ${name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('serves the document at GET /api/openapi.json, titled with the site title, its schemas valid JSON Schema', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as JsonValue;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Clipnest API' });
    const schemes = (document.components as JsonValue).securitySchemes as JsonValue;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    // Compiling a schema of every answer proves the document's schemas and refs are sound.
    const check = answerChecker(document);
    const version = (await server.call<Record<string, unknown>>('GET', '/api/version')).body;
    expect(check('GET /api/version', 200, version)).toBe('');
    // …and it refuses what the document does not say: a wrong type, an unlisted field, an unlisted error kind.
    expect(check('GET /api/version', 200, { ...version, data: { ...version.data, node: 20 } })).toMatch(/node/);
    expect(check('GET /api/version', 200, { ...version, extra: 1 })).toMatch(/additional/);
    const wrongKind = { code: 404, message: 'x', kind: 'conflict', success: false };
    expect(check('GET /api/pastes/{id}', 404, wrongKind)).toMatch(/kind|allowed/);

    await server.call('PUT', '/api/admin/settings/group/4', { token, body: { site_title: 'Team Clipboard' } });
    const renamed = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as JsonValue;
    expect(renamed.info).toMatchObject({ title: 'Team Clipboard API' });
  });
});
