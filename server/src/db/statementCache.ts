import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running a point
 * lookup. The same SQL text is reused (parameters are bound separately), so statements are kept,
 * least recently used first out. Kysely runs one query at a time per connection, so a cached
 * statement is never in use twice at once.
 */
export function withStatementCache(sqlite: SqliteDatabase, capacity = 256): KyselySqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
