import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/** What the counter tables of db/counters.ts hold and what COUNT(*) / SUM say, side by side. */
export interface CounterComparison {
  counters: CounterState;
  truth: CounterState;
}

interface CounterState {
  rows: Record<string, number>;
  /** "table day" → rows created that day; zero entries left out (a counter may keep a 0 row). */
  daily: Record<string, number>;
  /** config id → "bytes/files"; zero entries left out. */
  storage: Record<string, string>;
}

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** Reads both sides; `expect(c.counters).toEqual(c.truth)`. Only tables with a counter row are compared. */
export async function compareCounters(database: Kysely<Database>): Promise<CounterComparison> {
  const db = database as unknown as AnyDb;
  const counters: CounterState = { rows: {}, daily: {}, storage: {} };
  const truth: CounterState = { rows: {}, daily: {}, storage: {} };

  for (const row of await database.selectFrom('row_counts').selectAll().execute()) {
    counters.rows[row.table_name] = Number(row.n);
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(row.table_name)}`.execute(db);
    truth.rows[row.table_name] = Number(rows[0]?.n ?? 0);
  }

  for (const row of await database.selectFrom('daily_created').selectAll().execute()) {
    if (Number(row.n) !== 0) counters.daily[`${row.table_name} ${row.day}`] = Number(row.n);
  }
  for (const table of ['pastes', 'files']) {
    const { rows } = await sql<{ day: string; n: number }>`select substr(created_at, 1, 10) as day, count(*) as n
      from ${sql.table(table)} group by substr(created_at, 1, 10)`.execute(db);
    for (const row of rows) truth.daily[`${table} ${row.day}`] = Number(row.n);
  }

  for (const row of await database.selectFrom('storage_usage').selectAll().execute()) {
    if (Number(row.bytes) !== 0 || Number(row.files) !== 0) {
      counters.storage[row.storage_config_id] = `${Number(row.bytes)}/${Number(row.files)}`;
    }
  }
  const { rows } = await sql<{ id: string; bytes: number; files: number }>`select storage_config_id as id,
    sum(size) as bytes, count(*) as files from files group by storage_config_id`.execute(db);
  for (const row of rows) truth.storage[row.id] = `${Number(row.bytes)}/${Number(row.files)}`;

  return { counters, truth };
}
