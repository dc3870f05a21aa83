import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { ApiEnvelope } from '@clipnest/contract';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import type { OpenOptions } from '../../src/db/database.js';
import type { Clock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { closeWhenIdle } from '../../src/http/closeServer.js';
import { applyHttpTimeouts } from '../../src/http/timeouts.js';
import { buildServer, httpTimeoutsOf, type BuiltServer } from '../../src/server.js';

export type DbTarget = 'sqlite' | 'postgres';

/**
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). CLIPNEST_TEST_DATABASES (`postgres`,
 * `sqlite,postgres`) narrows that: CI runs each database once, PostgreSQL on Node 20 and SQLite on Node 24.
 */
export const dbTargets: DbTarget[] = pickDbTargets(process.env);

function pickDbTargets(env: NodeJS.ProcessEnv): DbTarget[] {
  const available: DbTarget[] = env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const wanted = (env.CLIPNEST_TEST_DATABASES ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (wanted.length === 0) return available;
  const unknown = wanted.filter((name) => !available.includes(name as DbTarget));
  if (unknown.length) throw new Error(`CLIPNEST_TEST_DATABASES names ${unknown.join(', ')}: not available here`);
  return available.filter((target) => wanted.includes(target));
}

export const ADMIN = { username: 'admin', password: 'correct-horse-battery' };

/** A clock tests can move forward. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string | Uint8Array;
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  target: DbTarget;
  /** The data directory and PostgreSQL schema, for a restart on the same data (`reuse`). */
  dataDir: string;
  /** PostgreSQL: the schema this server's database lives in (another instance may share it). */
  schema?: string;
  built: BuiltServer;
  clock: TestClock;
  call<T = unknown>(
    method: string,
    path: string,
    options?: CallOptions,
  ): Promise<{ status: number; body: ApiEnvelope<T>; headers: Headers }>;
  login(username?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh PostgreSQL schema for one test server. */
async function createPgSchema(databaseUrl: string): Promise<string> {
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  return schema;
}

/** Starts the real app on 127.0.0.1 with a fresh database and data directory. */
export async function startTestServer(
  target: DbTarget,
  env: Record<string, string> = {},
  options: {
    onQuery?: OpenOptions['onQuery'];
    /** Start on the data dir (and PostgreSQL database or schema) another server left: a restart. The dir is removed on close. */
    reuse?: { dataDir: string; databaseUrl?: string; schema?: string };
    /** close() leaves the data directory and schema in place (for a `reuse` after it). */
    keepData?: boolean;
    /** PostgreSQL: join this schema of a running test server (a second instance); it is not dropped on close. */
    sharedSchema?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = options.reuse?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'clipnest-test-'));
  let schema: string | undefined = options.reuse?.schema;
  let databaseUrl = '';
  if (target === 'postgres' && options.reuse?.databaseUrl) {
    databaseUrl = options.reuse.databaseUrl;
  } else if (target === 'postgres') {
    databaseUrl = process.env.TEST_DATABASE_URL ?? '';
    schema ??= options.sharedSchema ?? (await createPgSchema(databaseUrl));
  }
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    { webDistDir: path.join(dataDir, 'no-web') },
  );
  const clock = new TestClock();
  const built = await buildServer(config, {
    clock,
    database: { ...(schema ? { pgSchema: schema } : {}), onQuery: options.onQuery },
    logger: createLogger('error'),
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: built.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  // With it, the product's 65 s keep-alive: the tests' fetch and this server share one event loop, and with Node's
  // 5 s a loop stalled past it (a loaded CI machine, 32 MB of JSON parsed) let the server close an idle socket that
  // fetch had just reused for the next request: ECONNRESET.
  applyHttpTimeouts(server, httpTimeoutsOf(config));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  const call: TestServer['call'] = async (method, urlPath, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers.authorization = `ApiKey ${options.apiKey}`;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url + urlPath, { method, headers, body });
    const text = await response.text();
    let parsed: ApiEnvelope<never>;
    try {
      parsed = JSON.parse(text) as ApiEnvelope<never>;
    } catch {
      throw new Error(`${method} ${urlPath} answered ${response.status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };

  return {
    url,
    target,
    dataDir,
    ...(schema ? { schema } : {}),
    built,
    clock,
    call,
    async login(username = ADMIN.username, password = ADMIN.password) {
      const res = await call<{ token: string }>('POST', '/api/admin/login', { body: { username, password } });
      if (res.status !== 200 || !res.body.data) throw new Error(`login failed: ${res.status} ${res.body.message}`);
      return res.body.data.token;
    },
    async close() {
      await closeWhenIdle(server);
      await built.close();
      if (options.keepData) return;
      if (schema && !options.sharedSchema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every row of a table, sorted, for "nothing changed" assertions. */
export async function snapshotTable(server: TestServer, table: 'admins' | 'admin_tokens' | 'api_keys' | 'settings') {
  const rows = await server.built.database.db.selectFrom(table).selectAll().execute();
  return rows.map((row) => JSON.stringify(row)).sort();
}

export function expectEnvelope(body: ApiEnvelope<unknown>, status: number): void {
  if (body.code !== status || body.success !== status < 400 || typeof body.message !== 'string') {
    throw new Error(`envelope mismatch: expected code ${status}, got ${JSON.stringify(body)}`);
  }
}
