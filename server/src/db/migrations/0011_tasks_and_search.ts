import type { Kysely, Migration } from 'kysely';

/**
 * Server-side jobs (copy across storages, URL fetches, …) with one row per file, so progress, cancel and
 * retry survive a restart; and the name index the fs search answers from (filled by listings, by every
 * write the app makes through the vfs, and by a bounded background crawl).
 */
export const tasksAndSearch: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('tasks')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('options_json', 'text', (c) => c.notNull())
      .addColumn('total_files', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('done_files', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed_files', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('total_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('speed', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('runner', 'varchar(64)')
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('started_at', 'varchar(32)')
      .addColumn('finished_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('tasks_created_by').on('tasks').columns(['created_by', 'created_at']).execute();
    await db.schema.createIndex('tasks_status').on('tasks').column('status').execute();
    await db.schema
      .createTable('task_items')
      .addColumn('task_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('target', 'text', (c) => c.notNull())
      .addColumn('is_dir', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('task_items_pk', ['task_id', 'seq'])
      .execute();
    await db.schema
      .createTable('fs_index')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('mount_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('rel_path', 'text', (c) => c.notNull())
      .addColumn('parent', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_lower', 'text', (c) => c.notNull())
      .addColumn('is_dir', 'integer', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('last_modified', 'varchar(32)')
      .addColumn('indexed_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('fs_index_parent').on('fs_index').columns(['mount_id', 'parent']).execute();
    await db.schema.createIndex('fs_index_name').on('fs_index').columns(['name_lower']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fs_index').execute();
    await db.schema.dropTable('task_items').execute();
    await db.schema.dropTable('tasks').execute();
  },
};
