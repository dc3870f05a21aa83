import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import { tableColumns } from '../db/introspect.js';
import type { Database } from '../db/schema.js';

export interface StorageConfigRow {
  id: string;
  name: string;
  storage_type: string;
  total_capacity: number | null;
  is_default: number | boolean | null;
}

export interface RecentRow {
  id: string;
  slug: string;
  filename: string | null;
  size: number | null;
  created_by: string | null;
  created_at: string;
}

/**
 * Read-only queries behind the dashboard. Tables other features own may not exist yet, so every
 * query names a table from a fixed list (never from input) and the service checks the catalogue first.
 * Each query is a count, a range on created_at, an ORDER BY created_at … LIMIT, or a GROUP BY on
 * files.storage_config_id: all served by the indexes the owning features create.
 */
export class DashboardRepository {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables of other features, not in this worktree's schema
  private readonly db: Kysely<any>;

  constructor(
    db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    this.db = db;
  }

  columns(): Promise<Map<string, string[]>> {
    return tableColumns(this.db, this.dialect);
  }

  async count(table: string): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** Rows created per UTC day since `since` (an ISO time), keyed by YYYY-MM-DD. */
  async createdPerDay(table: string, since: string): Promise<Map<string, number>> {
    const day = sql`substr(created_at, 1, 10)`;
    const { rows } = await sql<{ day: string; n: number | string }>`
      select ${day} as day, count(*) as n from ${sql.table(table)}
      where created_at >= ${since} group by ${day}`.execute(this.db);
    return new Map(rows.map((r) => [String(r.day), Number(r.n)]));
  }

  async recent(table: 'pastes' | 'files', limit: number, withFileColumns: boolean): Promise<RecentRow[]> {
    const extra = withFileColumns ? sql`filename, size` : sql`null as filename, null as size`;
    const { rows } = await sql<RecentRow>`
      select id, slug, ${extra}, created_by, created_at from ${sql.table(table)}
      order by created_at desc limit ${limit}`.execute(this.db);
    return rows;
  }

  async storageConfigs(): Promise<StorageConfigRow[]> {
    const { rows } = await sql<StorageConfigRow>`
      select id, name, storage_type, total_capacity, is_default from storage_configs order by name`.execute(this.db);
    return rows;
  }

  /** SUM(size) and COUNT per storage config id. */
  async usageByConfig(): Promise<Map<string, { bytes: number; files: number }>> {
    const { rows } = await sql<{ id: string | null; bytes: number | string | null; files: number | string }>`
      select storage_config_id as id, sum(size) as bytes, count(*) as files
      from files group by storage_config_id`.execute(this.db);
    return new Map(
      rows
        .filter((r) => r.id !== null)
        .map((r) => [String(r.id), { bytes: Number(r.bytes ?? 0), files: Number(r.files) }]),
    );
  }
}
