import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface StorageUsageRow {
  id: string;
  name: string;
  storage_type: string;
  total_capacity: number | null;
  is_default: number | boolean | null;
  bytes: number | null;
  files: number | null;
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
 * Read-only queries behind the dashboard. Totals come from the trigger-maintained counters of
 * db/counters.ts (primary-key lookups); only the recent lists touch pastes/files, through
 * `ORDER BY created_at DESC LIMIT` on their created_at indexes. Table names come from a fixed list.
 */
export class DashboardRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Row counts of the tracked tables among `tables`; an untracked (or absent) table has no entry. */
  async rowCounts(tables: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('row_counts')
      .select(['table_name', 'n'])
      .where('table_name', 'in', [...tables])
      .execute();
    return new Map(rows.map((r) => [r.table_name, Number(r.n)]));
  }

  /** Rows created per UTC day from `firstDay` (YYYY-MM-DD) on, keyed by table then day. */
  async createdPerDay(tables: readonly string[], firstDay: string): Promise<Map<string, Map<string, number>>> {
    const rows = await this.db
      .selectFrom('daily_created')
      .select(['table_name', 'day', 'n'])
      .where('table_name', 'in', [...tables])
      .where('day', '>=', firstDay)
      .execute();
    const result = new Map<string, Map<string, number>>();
    for (const row of rows) {
      const days = result.get(row.table_name) ?? new Map<string, number>();
      days.set(row.day, Number(row.n));
      result.set(row.table_name, days);
    }
    return result;
  }

  async recent(table: 'pastes' | 'files', limit: number, withFileColumns: boolean): Promise<RecentRow[]> {
    const extra = withFileColumns ? sql`filename, size` : sql`null as filename, null as size`;
    const { rows } = await sql<RecentRow>`
      select id, slug, ${extra}, created_by, created_at from ${sql.table(table)}
      order by created_at desc limit ${limit}`.execute(this.db);
    return rows;
  }

  /** Admin usernames and API key names by id (primary-key lookups), for the recent list's creators. */
  async creatorNames(
    adminIds: string[],
    keyIds: string[],
  ): Promise<{ admins: Map<string, string>; keys: Map<string, string> }> {
    const [admins, keys] = await Promise.all([
      adminIds.length
        ? this.db.selectFrom('admins').select(['id', 'username']).where('id', 'in', adminIds).execute()
        : [],
      keyIds.length ? this.db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', keyIds).execute() : [],
    ]);
    return {
      admins: new Map(admins.map((a) => [a.id, a.username])),
      keys: new Map(keys.map((k) => [k.id, k.name])),
    };
  }

  /** Every storage config (one dashboard row each) with its bytes and file count. */
  async storageUsage(): Promise<StorageUsageRow[]> {
    // No aliases: query plans (checked by tests) then name the tables.
    return this.db
      .selectFrom('storage_configs')
      .leftJoin('storage_usage', 'storage_usage.storage_config_id', 'storage_configs.id')
      .select([
        'storage_configs.id',
        'storage_configs.name',
        'storage_configs.storage_type',
        'storage_configs.total_capacity',
        'storage_configs.is_default',
        'storage_usage.bytes',
        'storage_usage.files',
      ])
      .orderBy('storage_configs.name')
      .execute();
  }

  /**
   * Folder shares, bundles and upload requests from `row_counts` (primary-key lookups) and the newest files
   * received (`ORDER BY created_at DESC LIMIT` on their index, each joined to its request by primary key).
   */
  async shareSummary(receivedLimit: number) {
    const counts = await this.rowCounts(['folder_shares', 'upload_requests']);
    const received = await this.db
      .selectFrom('upload_request_files')
      .innerJoin('upload_requests', 'upload_requests.id', 'upload_request_files.request_id')
      .select([
        'upload_request_files.id',
        'upload_request_files.request_id',
        'upload_requests.slug as request_slug',
        'upload_request_files.name',
        'upload_request_files.size',
        'upload_request_files.path',
        'upload_request_files.created_at',
      ])
      .orderBy('upload_request_files.created_at', 'desc')
      .limit(receivedLimit)
      .execute();
    return {
      folder_shares: counts.get('folder_shares') ?? 0,
      upload_requests: counts.get('upload_requests') ?? 0,
      received: received.map((r) => ({ ...r, size: Number(r.size) })),
    };
  }
}
