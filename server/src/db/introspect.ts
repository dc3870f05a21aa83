import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';

/** Column names of every table of this database (PostgreSQL: only the current schema). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: this reads the catalogue, not typed tables
export async function tableColumns(db: Kysely<any>, dialect: Dialect): Promise<Map<string, string[]>> {
  const tables = await db.introspection.getTables();
  let schema: string | undefined;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema;
  }
  const result = new Map<string, string[]>();
  for (const table of tables) {
    if (schema !== undefined && table.schema !== schema) continue;
    result.set(
      table.name,
      table.columns.map((c) => c.name),
    );
  }
  return result;
}
