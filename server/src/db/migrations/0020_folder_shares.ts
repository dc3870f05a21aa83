import type { Kysely, Migration } from 'kysely';

/**
 * Shares of more than one file (`folder_shares`): `type` 'folder' names a folder of the tree (`path`, read as
 * `created_by`, confined to it). `downloads` counts file downloads and zips against `max_downloads` (0 =
 * unlimited) in one conditional UPDATE.
 */
export const folderShares: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('folder_shares')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('folder'))
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('path', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('max_downloads', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('folder_shares_created_by').on('folder_shares').column('created_by').execute();
    await db.schema.createIndex('folder_shares_created_at').on('folder_shares').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('folder_shares').execute();
  },
};
