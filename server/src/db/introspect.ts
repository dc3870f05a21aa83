import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';

/** Column names of every table of this database (PostgreSQL: only the current schema). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: this reads the catalogue, not typed tables
export async function tableColumns(db: Kysely<any>, dialect: Dialect): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (dialect === 'postgres') {
    // Straight from information_schema, for this schema only: Kysely's introspection reads every schema's
    // tables (and resolves each by name), which fails when other schemas change meanwhile.
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and table_name not in ('kysely_migration', 'kysely_migration_lock')
      order by table_name, ordinal_position`.execute(db);
    for (const row of rows) result.set(row.table_name, [...(result.get(row.table_name) ?? []), row.column_name]);
    return result;
  }
  for (const table of await db.introspection.getTables()) {
    result.set(
      table.name,
      table.columns.map((c) => c.name),
    );
  }
  return result;
}
