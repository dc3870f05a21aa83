// A PostgreSQL restart or an administrator ending connections must not end the server: the pool drops the
// broken idle connections and the next request opens new ones.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/harness.js';

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL connections ended under a running server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('postgres');
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  it('keeps serving after every pooled connection was terminated', async () => {
    const db = server.built.database.db;
    // Hold several connections at once so the pool keeps them idle afterwards, and learn their backend ids.
    const pids = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(db).then((r) => r.rows[0]!.pid),
      ),
    );
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    } finally {
      await admin.end();
    }
    // Let the pool see the terminations on its idle connections.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const token = await server.login();
    const res = await server.call('GET', '/api/test/admin-token', { token });
    expect(res.status).toBe(200);
  });
});
