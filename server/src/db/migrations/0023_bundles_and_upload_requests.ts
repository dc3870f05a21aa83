import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Bundles and upload requests (docs/api/shares.md, docs/api/upload-requests.md).
 * - `bundle_files`: the files of a `folder_shares` row of type 'bundle' (file shares of `files`, one link for
 *   all), with the name each has in the bundle (unique within it) and their order.
 * - `upload_requests`: a public link others upload into (a folder of the tree, or file shares of the creator),
 *   with limits; `files_received`/`bytes_received` are reserved in one conditional UPDATE per file.
 * - `upload_request_files`: what arrived through a request (the creator's view and the dashboard).
 * The dashboard counts `folder_shares` (folder shares and bundles) and `upload_requests` in `row_counts`, kept by
 * triggers like every counted table (0007, 0010).
 */
export const bundlesAndUploadRequests: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('bundle_files')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('share_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('bundle_files_share').on('bundle_files').columns(['share_id', 'position']).execute();
    await db.schema.createIndex('bundle_files_file_id').on('bundle_files').column('file_id').execute();

    await db.schema
      .createTable('upload_requests')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('target_path', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text')
      .addColumn('max_files', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('max_file_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('files_received', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes_received', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('revoked_at', 'varchar(32)')
      .addColumn('last_upload_at', 'varchar(32)')
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('upload_requests_created_by').on('upload_requests').column('created_by').execute();

    await db.schema
      .createTable('upload_request_files')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('path', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('file_id', 'varchar(64)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('upload_request_files_request')
      .on('upload_request_files')
      .columns(['request_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('upload_request_files_created_at')
      .on('upload_request_files')
      .column('created_at')
      .execute();
    await countRows(db);
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const [table, events] of [
      ['folder_shares', ['insert', 'delete', 'truncate']],
      ['upload_requests', ['insert', 'delete', 'truncate']],
    ] as const) {
      for (const event of events) {
        if (!pg && event === 'truncate') continue;
        await sql.raw(`drop trigger if exists counter_${table}_${event}${pg ? ` on ${table}` : ''}`).execute(db);
      }
    }
    await db.deleteFrom('row_counts').where('table_name', 'in', ['folder_shares', 'upload_requests']).execute();
    await db.schema.dropTable('upload_request_files').execute();
    await db.schema.dropTable('upload_requests').execute();
    await db.schema.dropTable('bundle_files').execute();
  },
};

/** `row_counts` rows for `folder_shares` and `upload_requests`, with the triggers and PostgreSQL functions of 0007. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
async function countRows(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const statements: string[] = [];
  for (const table of ['folder_shares', 'upload_requests']) {
    if (pg) {
      statements.push(
        `create trigger counter_${table}_truncate after truncate on ${table}
       for each statement execute function clipnest_row_count_truncate()`,
        `create trigger counter_${table}_insert after insert on ${table} referencing new table as inserted_rows
         for each statement execute function clipnest_row_count_insert()`,
        `create trigger counter_${table}_delete after delete on ${table} referencing old table as deleted_rows
         for each statement execute function clipnest_row_count_delete()`,
      );
    } else {
      statements.push(
        `create trigger counter_${table}_insert after insert on ${table} begin
update row_counts set n = n + 1 where table_name = '${table}';
end`,
        `create trigger counter_${table}_delete after delete on ${table} begin
update row_counts set n = n - 1 where table_name = '${table}';
end`,
      );
    }
  }
  // `where true`: SQLite cannot otherwise tell this ON CONFLICT from a join constraint.
  for (const [name, from] of [
    ['folder_shares', 'folder_shares where true'],
    ['upload_requests', 'upload_requests where true'],
  ]) {
    statements.push(`insert into row_counts (table_name, n) select '${name}', count(*) from ${from}
     on conflict (table_name) do update set n = excluded.n`);
  }
  for (const statement of statements) await sql.raw(statement).execute(db);
}
