import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Mount points (spec §3 "Mount point"): a storage config mounted at a virtual path of the fs tree.
 * `path` is unique; nested paths are allowed (longest prefix wins, server/src/vfs). Flags are 0/1.
 * Also `files.mount_id`: set on shares that point at a mounted object in place (never deleted with the share).
 */
export const mounts: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('mounts')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('path', 'varchar(512)', (c) => c.notNull().unique())
      .addColumn('storage_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('storage_config_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cache_ttl', 'integer', (c) => c.notNull().defaultTo(300))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('web_proxy', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enable_sign', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sign_expires', 'integer')
      .addColumn('webdav_policy', 'varchar(32)', (c) => c.notNull().defaultTo('302_redirect'))
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('mounts_storage_config_id').on('mounts').column('storage_config_id').execute();
    await countMounts(db);
    // A file share made from the fs tree (POST /api/fs/create-share) points at the mounted object in place:
    // `mount_id` marks it, and deleting such a share never deletes the object.
    await db.schema.alterTable('files').addColumn('mount_id', 'varchar(64)').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.alterTable('files').dropColumn('mount_id').execute();
    await db.schema.dropTable('mounts').execute();
    await db.deleteFrom('row_counts').where('table_name', '=', 'mounts').execute();
  },
};

/**
 * Counts `mounts` in `row_counts` (the dashboard reads it) with the triggers `0007_dashboard_counters` gives every
 * counted table. That migration always ran before this one (names sort, and both are in every set), so the counter
 * tables and the PostgreSQL trigger functions are there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
async function countMounts(db: Kysely<any>): Promise<void> {
  const statements =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? [
          `create trigger counter_mounts_row_count_truncate after truncate on mounts
       for each statement execute function clipnest_row_count_truncate()`,
          `create trigger counter_mounts_row_count_insert after insert on mounts referencing new table as inserted_rows
         for each statement execute function clipnest_row_count_insert()`,
          `create trigger counter_mounts_row_count_delete after delete on mounts referencing old table as deleted_rows
         for each statement execute function clipnest_row_count_delete()`,
        ]
      : [
          `create trigger counter_mounts_row_count_insert after insert on mounts begin
update row_counts set n = n + 1 where table_name = 'mounts';
end`,
          `create trigger counter_mounts_row_count_delete after delete on mounts begin
update row_counts set n = n - 1 where table_name = 'mounts';
end`,
        ];
  // `where true`: SQLite cannot otherwise tell this ON CONFLICT from a join constraint.
  statements.push(`insert into row_counts (table_name, n) select 'mounts', count(*) from mounts where true
     on conflict (table_name) do update set n = excluded.n`);
  for (const statement of statements) await sql.raw(statement).execute(db);
}
