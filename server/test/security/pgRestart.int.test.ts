// Fault: PostgreSQL goes away for a while (a restart as the app sees it) and comes back. The shared test database
// server cannot be restarted, so a TCP proxy stands between our server and it: cut destroys every connection
// (the pool's idle ones, the LISTEN connection, queries in flight) and refuses new ones; restore accepts again.
// While cut, requests answer 503 in the envelope (never a 500, never a crash); once restored, the same process
// serves again without a restart. PostgreSQL only (skipped without TEST_DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ApiEnvelope } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, startChildServer, type ChildServer } from '../support/childServer.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';

const pgUrl = process.env.TEST_DATABASE_URL;

async function call(server: ChildServer, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(server.url + url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let envelope: ApiEnvelope<unknown> | undefined;
  try {
    envelope = JSON.parse(text) as ApiEnvelope<unknown>;
  } catch {
    envelope = undefined;
  }
  return { status: res.status, envelope, text };
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`still not true after 60 s: ${what}`);
}

describe.skipIf(!pgUrl)('PostgreSQL restarted under a running server (skipped without TEST_DATABASE_URL)', () => {
  let proxy: TcpProxy;
  let database: { url: string; drop(): Promise<void> };
  let server: ChildServer;
  let dataDir: string;

  beforeAll(async () => {
    database = await createPgDatabase();
    const target = new URL(database.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-pgcut-'));
    server = await startChildServer({ DATA_DIR: dataDir, DATABASE_URL: throughProxy(database.url, proxy) });
  });
  afterAll(async () => {
    await server?.kill();
    await proxy?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 in the envelope while the database is gone, never crashes, and serves again once it is back', async () => {
    const token = await server.login();
    const created = await call(server, 'POST', '/api/paste', token, { content: 'before the cut' });
    expect(created.status, created.text).toBe(201);
    const slug = (created.envelope?.data as { slug: string }).slug;
    const requests = (): [string, string, string | undefined, unknown?][] => [
      ['GET', '/api/pastes', token],
      ['GET', `/api/paste/${slug}`, undefined],
      ['GET', `/api/raw/${slug}`, undefined],
      ['POST', '/api/paste', token, { content: 'during the cut' }],
      ['POST', '/api/admin/login', undefined, { username: 'admin', password: 'correct-horse-battery' }],
      ['GET', '/api/admin/api-keys', token],
      ['GET', '/api/health/ready', undefined],
      ['GET', '/api/fs/list?path=%2F', token],
    ];
    for (const [method, url, auth, body] of requests())
      expect((await call(server, method, url, auth, body)).status, `${method} ${url}`).toBeLessThan(300);

    // Requests in flight when the connections are cut, then requests while connects are refused.
    const inFlight = Array.from({ length: 40 }, (_, i) => requests()[i % 8]!).map(([method, url, auth, body]) =>
      call(server, method, url, auth, body).then((res) => ({ ...res, what: `${method} ${url}` })),
    );
    await proxy.cut();
    const answers = await Promise.all(inFlight);
    const refused: typeof answers = [];
    for (let round = 0; round < 3; round++)
      for (const [method, url, auth, body] of requests())
        refused.push({ ...(await call(server, method, url, auth, body)), what: `${method} ${url}` });

    let tried = 0;
    for (const res of [...answers, ...refused]) {
      tried++;
      // In flight: done before the cut (2xx) or failed cleanly; after the cut: 503 with the reason.
      if (res.status < 300 && answers.includes(res)) continue;
      expect(res.status, `${res.what}: ${res.text.slice(0, 300)}`).toBe(503);
      expect(res.envelope).toMatchObject({ success: false, code: 503 });
      expect(res.envelope?.message).toMatch(/database/i);
      expect(res.text).not.toMatch(/ECONNREFUSED|at \w+ \(|Connection terminated/);
    }
    for (const res of refused) expect(res.status, res.what).toBe(503);
    // The process did not die (an unhandled pool or LISTEN error would have ended it).
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    // Health and readiness say why; what needs no database still answers.
    expect((await call(server, 'GET', '/api/health')).envelope?.message).toMatch(/database is not reachable/);
    const ready = await call(server, 'GET', '/api/health/ready');
    expect(ready.envelope?.data).toMatchObject({ status: 'unavailable', database: 'unavailable' });
    expect((await call(server, 'GET', '/api/version')).status).toBe(200);

    await proxy.restore();
    await eventually(async () => (await call(server, 'GET', '/api/pastes', token)).status === 200, 'serving again');
    for (const [method, url, auth, body] of requests())
      expect((await call(server, method, url, auth, body)).status, `${method} ${url} after`).toBeLessThan(300);
    // Still the same process, and healthy again.
    expect(server.child.exitCode).toBeNull();
    expect((await call(server, 'GET', '/api/health')).status).toBe(200);
    console.log(`[security] pg restart: ${tried} requests tried while cut, ${tried} answered cleanly; recovered`);
  }, 120_000);
});
