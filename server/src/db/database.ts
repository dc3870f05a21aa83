import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type LogConfig,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely';
import { pg } from '../lib/optionalModules.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import { withStatementCache } from './statementCache.js';

export type Dialect = 'sqlite' | 'postgres';

/** The dialect behind a Kysely instance (a transaction or a repository's handle carries no other sign of it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only the adapter is read
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema everything lives in, when not the default. */
  schema?: string;
  /**
   * PostgreSQL only: one connection of its own for the short write requests wait on (the paste view flush), so
   * that write never queues behind the requests' queries in the pool (a busy pool holds it for a request's time).
   */
  flushDb?: Kysely<Database>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL only: run everything inside this schema (tests use one schema each). */
  pgSchema?: string;
  /** Called with every statement after it ran (tests check the query plans of a request with it). */
  onQuery?: (query: CompiledQuery) => void;
  /**
   * PostgreSQL only: an idle pooled connection failed (the server restarted, an administrator ended it). The pool
   * drops that connection and the next query opens a new one; without a listener the error would end the process.
   */
  onConnectionError?: (error: Error) => void;
}

function logConfig(options: OpenOptions): LogConfig | undefined {
  const { onQuery } = options;
  if (!onQuery) return undefined;
  return (event) => {
    if (event.level === 'query') onQuery(event.query);
  };
}

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      log: logConfig(options),
    });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const postgres = (max: number) => {
    const pool = new (pg().Pool)({
      connectionString: url,
      max,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    pool.on('error', (error) => options.onConnectionError?.(error));
    // A connection that dies while checked out (a query in flight, a transaction open) emits 'error' on its client,
    // where the pool listens only while it is idle: without this listener that error would end the process. The
    // query itself fails (503, `isDatabaseUnavailable`) and the pool drops the broken client on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: logConfig(options) });
  };
  const db = postgres(10);
  const flushDb = postgres(1);
  return {
    db,
    flushDb,
    dialect: 'postgres',
    schema: options.pgSchema,
    close: async () => {
      await Promise.all([db.destroy(), flushDb.destroy()]);
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The app's migrator for a database (tests use it to migrate step by step). */
function migratorFor({ db, schema }: Pick<DatabaseHandle, 'db' | 'schema'>): Migrator {
  // Naming the schema keeps Kysely from mistaking another schema's migration table for ours.
  return new Migrator({
    db,
    provider,
    // Features land in parallel; a data dir that ran a later-numbered migration first must still upgrade.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  await migrate(handle, (migrator) => migrator.migrateToLatest());
}

/** Migrates up or down to one named migration (tests step through the history with it). */
export async function migrateTo(handle: DatabaseHandle, name: string): Promise<void> {
  await migrate(handle, (migrator) => migrator.migrateTo(name));
}

async function migrate(handle: DatabaseHandle, run: (migrator: Migrator) => Promise<MigrationResultSet>) {
  const migrator = migratorFor(handle);
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await run(migrator);
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    // Kysely looks for its migration table among the tables of every schema; another schema dropped during that
    // look (other test servers on one database do this all the time) fails it before any migration ran.
    if (!failed && attempt < 3 && otherSchemaVanished(error, handle.schema)) continue;
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/**
 * Whether a migration failed only because another schema (or a table in it) vanished while Kysely listed the tables
 * of every schema: `schema "x" does not exist`, or `relation "x.t" does not exist` / `column "c" of relation "t" does
 * not exist` from the per-column lookups.
 */
export function otherSchemaVanished(error: unknown, ours: string | undefined): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (code === '3F000') return !(ours && message.includes(`"${ours}"`));
  const relation = code === '42P01' ? /^relation "([^".]+)\.[^"]+" does not exist/.exec(message) : null;
  if (relation) return relation[1] !== ours;
  // pg_get_serial_sequence on a column another schema's migration dropped (or whose table it re-created) after the
  // listing saw it. The message names no schema, but before any migration ran ours cannot have changed.
  return code === '42703' && /^column "[^"]+" of relation "[^"]+" does not exist/.test(message);
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
