import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Trigger-maintained counters for the dashboard and the upload quota, filled from the rows already there:
 * - `row_counts (table_name, n)`: rows of each counted table; a table is "available" once it has a row here;
 * - `daily_created (table_name, day, n)`: rows per UTC creation day (YYYY-MM-DD of `created_at`);
 * - `storage_usage (storage_config_id, bytes, files)`: SUM(files.size) and COUNT per storage config.
 * They are not backed up (derived data): restored rows fire the same triggers.
 *
 * SQLite gets row-level triggers. PostgreSQL gets statement-level triggers over transition tables
 * for inserts and deletes, so a batch (restore, clear-expired) updates each counter row once per
 * statement instead of once per row; updates that move a row between counters are rare and row-level;
 * a TRUNCATE (PostgreSQL only, never done by the app) resets the table's counters.
 *
 * Frozen history: everything this migration runs is written here (it imports nothing of the app). `mounts` is
 * counted here only if its migration already ran (data dirs where it landed first); otherwise `0010_mounts`
 * installs its own counter triggers. A later counted table does the same in its own migration.
 */
export const dashboardCounters: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mounts may or may not exist
  async up(db: Kysely<any>) {
    await createCounterTables(db);
    const existing = await tableNames(db);
    for (const table of ['pastes', 'files', 'api_keys', 'storage_configs', 'mounts']) {
      if (existing.has(table)) await trackRowCount(db, table);
    }
    await trackDailyCreated(db, 'pastes');
    await trackDailyCreated(db, 'files');
    await trackStorageUsage(db);
  },
  async down(db: Kysely<unknown>) {
    await dropCounterTables(db);
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Names of the tables of this database (PostgreSQL: only the current schema). */
async function tableNames(db: AnyDb): Promise<Set<string>> {
  const { rows } = isPostgres(db)
    ? await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema()`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
  return new Set(rows.map((row) => row.name));
}

/** Table names are spliced into DDL: only fixed identifiers from this codebase are accepted. */
function checkedName(table: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name for counters: ${table}`);
  return table;
}

/** Every counter trigger's name starts with this (so they can all be found and dropped). */
const TRIGGER_PREFIX = 'counter_';

async function run(db: AnyDb, statement: string): Promise<void> {
  await sql.raw(statement).execute(db);
}

async function createCounterTables(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('row_counts')
    .ifNotExists()
    .addColumn('table_name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('daily_created')
    .ifNotExists()
    .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('daily_created_pk', ['table_name', 'day'])
    .execute();
  await db.schema
    .createTable('storage_usage')
    .ifNotExists()
    .addColumn('storage_config_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('files', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db)) {
    for (const fn of Object.values(PG_FUNCTIONS)) await run(db, fn);
  }
}

async function dropCounterTables(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) {
    // SQLite keeps triggers of other tables that name a dropped table, and they would then fail.
    const { rows } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'trigger' and substr(name, 1, ${TRIGGER_PREFIX.length}) = ${TRIGGER_PREFIX}`.execute(db);
    for (const { name } of rows) await run(db, `drop trigger if exists ${checkedName(name)}`);
  }
  for (const table of ['storage_usage', 'daily_created', 'row_counts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  if (isPostgres(db)) {
    for (const name of Object.keys(PG_FUNCTIONS)) await run(db, `drop function if exists ${name}() cascade`);
  }
}

/** Counts `table` in `row_counts` from now on (triggers, then the rows already there). */
async function trackRowCount(db: AnyDb, table: string): Promise<void> {
  const t = checkedName(table);
  await createCounterTables(db);
  await installTriggers(db, t, 'row_count', {
    sqlite: {
      insert: `update row_counts set n = n + 1 where table_name = '${t}';`,
      delete: `update row_counts set n = n - 1 where table_name = '${t}';`,
    },
    postgres: {
      insert: 'clipnest_row_count_insert',
      delete: 'clipnest_row_count_delete',
      truncate: 'clipnest_row_count_truncate',
    },
  });
  // Triggers first: on PostgreSQL creating them locks out writers until this transaction commits.
  await run(
    db,
    // `where true`: SQLite cannot otherwise tell this ON CONFLICT from a join constraint.
    `insert into row_counts (table_name, n) select '${t}', count(*) from ${t} where true
     on conflict (table_name) do update set n = excluded.n`,
  );
}

/** Keeps `daily_created` for `table` (which has a `created_at` ISO string column). */
async function trackDailyCreated(db: AnyDb, table: string): Promise<void> {
  const t = checkedName(table);
  await createCounterTables(db);
  const day = (row: 'new' | 'old') => `substr(${row}.created_at, 1, 10)`;
  const addNew = `insert into daily_created (table_name, day, n) values ('${t}', ${day('new')}, 1)
      on conflict (table_name, day) do update set n = daily_created.n + 1;`;
  const removeOld = `update daily_created set n = n - 1 where table_name = '${t}' and day = ${day('old')};`;
  await installTriggers(db, t, 'daily_created', {
    sqlite: { insert: addNew, delete: removeOld, update: `${removeOld}\n${addNew}` },
    postgres: {
      insert: 'clipnest_daily_created_insert',
      delete: 'clipnest_daily_created_delete',
      update: 'clipnest_daily_created_move',
      truncate: 'clipnest_daily_created_truncate',
    },
    updateOf: ['created_at'],
    updateWhen: `${day('old')} <> ${day('new')}`,
  });
  await run(db, `delete from daily_created where table_name = '${t}'`);
  await run(
    db,
    `insert into daily_created (table_name, day, n)
     select '${t}', substr(created_at, 1, 10), count(*) from ${t} group by substr(created_at, 1, 10)`,
  );
}

/** Keeps `storage_usage` for the `files` table (size and storage_config_id, both NOT NULL). */
async function trackStorageUsage(db: AnyDb): Promise<void> {
  await createCounterTables(db);
  const addNew = `insert into storage_usage (storage_config_id, bytes, files) values (new.storage_config_id, new.size, 1)
      on conflict (storage_config_id) do update set bytes = storage_usage.bytes + excluded.bytes,
      files = storage_usage.files + 1;`;
  const removeOld = `update storage_usage set bytes = bytes - old.size, files = files - 1
      where storage_config_id = old.storage_config_id;`;
  await installTriggers(db, 'files', 'storage_usage', {
    sqlite: { insert: addNew, delete: removeOld, update: `${removeOld}\n${addNew}` },
    postgres: {
      insert: 'clipnest_storage_usage_insert',
      delete: 'clipnest_storage_usage_delete',
      update: 'clipnest_storage_usage_move',
      truncate: 'clipnest_storage_usage_truncate',
    },
    updateOf: ['size', 'storage_config_id'],
    updateWhen: 'old.size <> new.size or old.storage_config_id <> new.storage_config_id',
  });
  await run(db, 'delete from storage_usage');
  await run(
    db,
    `insert into storage_usage (storage_config_id, bytes, files)
     select storage_config_id, coalesce(sum(size), 0), count(*) from files group by storage_config_id`,
  );
}

interface TriggerSpec {
  /** SQLite: body statements of row-level triggers (NEW / OLD rows). */
  sqlite: { insert: string; delete: string; update?: string };
  /** PostgreSQL: trigger functions (PG_FUNCTIONS) for statement-level insert/delete/truncate, row-level update. */
  postgres: { insert: string; delete: string; truncate: string; update?: string };
  updateOf?: string[];
  /** Fires the update trigger only when this holds (NOT NULL columns, so `<>` is enough). */
  updateWhen?: string;
}

async function installTriggers(db: AnyDb, table: string, purpose: string, spec: TriggerSpec): Promise<void> {
  const name = (event: string) => `${TRIGGER_PREFIX}${table}_${purpose}_${event}`;
  const postgres = isPostgres(db);
  const events = ['insert', 'delete', 'update', ...(postgres ? ['truncate'] : [])];
  for (const event of events) {
    await run(
      db,
      postgres ? `drop trigger if exists ${name(event)} on ${table}` : `drop trigger if exists ${name(event)}`,
    );
  }
  if (postgres) {
    await run(
      db,
      `create trigger ${name('truncate')} after truncate on ${table}
       for each statement execute function ${spec.postgres.truncate}()`,
    );
  }
  for (const event of ['insert', 'delete'] as const) {
    if (postgres) {
      const transition = event === 'insert' ? 'new table as inserted_rows' : 'old table as deleted_rows';
      await run(
        db,
        `create trigger ${name(event)} after ${event} on ${table} referencing ${transition}
         for each statement execute function ${spec.postgres[event]}()`,
      );
    } else {
      await run(db, `create trigger ${name(event)} after ${event} on ${table} begin\n${spec.sqlite[event]}\nend`);
    }
  }
  if (spec.sqlite.update !== undefined && spec.postgres.update !== undefined && spec.updateOf && spec.updateWhen) {
    const of = spec.updateOf.join(', ');
    await run(
      db,
      postgres
        ? `create trigger ${name('update')} after update of ${of} on ${table} for each row
           when (${spec.updateWhen}) execute function ${spec.postgres.update}()`
        : `create trigger ${name('update')} after update of ${of} on ${table} when ${spec.updateWhen}
           begin\n${spec.sqlite.update}\nend`,
    );
  }
}

/**
 * PostgreSQL trigger functions, shared by every table (TG_TABLE_NAME says which). Statement-level
 * ones read the transition tables `inserted_rows` / `deleted_rows` and skip the write when the
 * statement touched no row.
 */
const PG_FUNCTIONS: Record<string, string> = {
  clipnest_row_count_insert: pgFunction(
    'clipnest_row_count_insert',
    `update row_counts set n = n + (select count(*) from inserted_rows) where table_name = TG_TABLE_NAME::text
       and exists (select 1 from inserted_rows);`,
  ),
  clipnest_row_count_delete: pgFunction(
    'clipnest_row_count_delete',
    `update row_counts set n = n - (select count(*) from deleted_rows) where table_name = TG_TABLE_NAME::text
       and exists (select 1 from deleted_rows);`,
  ),
  clipnest_row_count_truncate: pgFunction(
    'clipnest_row_count_truncate',
    'update row_counts set n = 0 where table_name = TG_TABLE_NAME::text;',
  ),
  clipnest_daily_created_insert: pgFunction(
    'clipnest_daily_created_insert',
    `insert into daily_created (table_name, day, n)
       select TG_TABLE_NAME::text, substr(created_at, 1, 10), count(*) from inserted_rows group by 2 order by 2
       on conflict (table_name, day) do update set n = daily_created.n + excluded.n;`,
  ),
  clipnest_daily_created_delete: pgFunction(
    'clipnest_daily_created_delete',
    `update daily_created d set n = d.n - gone.n
       from (select substr(created_at, 1, 10) as day, count(*) as n from deleted_rows group by 1) gone
       where d.table_name = TG_TABLE_NAME::text and d.day = gone.day;`,
  ),
  clipnest_daily_created_move: pgFunction(
    'clipnest_daily_created_move',
    `update daily_created set n = n - 1 where table_name = TG_TABLE_NAME::text and day = substr(OLD.created_at, 1, 10);
     insert into daily_created (table_name, day, n) values (TG_TABLE_NAME::text, substr(NEW.created_at, 1, 10), 1)
       on conflict (table_name, day) do update set n = daily_created.n + 1;`,
  ),
  clipnest_daily_created_truncate: pgFunction(
    'clipnest_daily_created_truncate',
    'delete from daily_created where table_name = TG_TABLE_NAME::text;',
  ),
  clipnest_storage_usage_insert: pgFunction(
    'clipnest_storage_usage_insert',
    `insert into storage_usage (storage_config_id, bytes, files)
       select storage_config_id, sum(size), count(*) from inserted_rows group by 1 order by 1
       on conflict (storage_config_id) do update set bytes = storage_usage.bytes + excluded.bytes,
         files = storage_usage.files + excluded.files;`,
  ),
  clipnest_storage_usage_delete: pgFunction(
    'clipnest_storage_usage_delete',
    `update storage_usage u set bytes = u.bytes - gone.bytes, files = u.files - gone.files
       from (select storage_config_id, sum(size) as bytes, count(*) as files from deleted_rows group by 1) gone
       where u.storage_config_id = gone.storage_config_id;`,
  ),
  clipnest_storage_usage_move: pgFunction(
    'clipnest_storage_usage_move',
    `update storage_usage set bytes = bytes - OLD.size, files = files - 1 where storage_config_id = OLD.storage_config_id;
     insert into storage_usage (storage_config_id, bytes, files) values (NEW.storage_config_id, NEW.size, 1)
       on conflict (storage_config_id) do update set bytes = storage_usage.bytes + excluded.bytes,
         files = storage_usage.files + 1;`,
  ),
  clipnest_storage_usage_truncate: pgFunction('clipnest_storage_usage_truncate', 'delete from storage_usage;'),
};

function pgFunction(name: string, body: string): string {
  return `create or replace function ${name}() returns trigger language plpgsql as $fn$
begin
  ${body}
  return null;
end
$fn$`;
}
