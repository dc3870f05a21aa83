/** Backup helpers for integration tests: download a backup, snapshot every backed-up table. */
import type { BackupFile } from '@clipnest/contract';
import { sql } from 'kysely';
import type { TestServer } from './harness.js';

/**
 * Writes out what the server buffers for its once-a-second writes (view counts, daily stats): a write an earlier
 * request queued, landing between two looks at the database, is not a change made by the request in between.
 */
export async function flushBufferedWrites(server: TestServer): Promise<void> {
  await server.built.services.pastes.flushViews();
  await server.built.services.stats.flush();
}

/** Every backed-up table's rows, sorted, keyed by table. */
export async function snapshotAll(server: TestServer): Promise<Record<string, string[]>> {
  await flushBufferedWrites(server);
  const modules = await server.built.services.backups.modules();
  const result: Record<string, string[]> = {};
  for (const table of modules.flatMap((m) => m.tables.map((t) => t.name))) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      server.built.database.db,
    );
    result[table] = rows.map((row) => JSON.stringify(Object.entries(row).sort())).sort();
  }
  return result;
}

export async function download(
  server: TestServer,
  token: string,
  body: unknown,
): Promise<{ status: number; file: BackupFile; disposition: string | null }> {
  const res = await fetch(`${server.url}/api/admin/backup/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    file: (await res.json()) as BackupFile,
    disposition: res.headers.get('content-disposition'),
  };
}
