import type { Kysely, Migration } from 'kysely';

/** Storage configs (built-in local + S3) and file shares stored in them. Sizes are bigint (files > 2 GiB). */
export const storageFiles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('storage_configs')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('storage_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('provider', 'varchar(32)')
      .addColumn('endpoint', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('bucket', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('region', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('access_key_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('secret_encrypted', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('path_style', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('default_folder', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('custom_host', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('signature_expires_in', 'integer', (c) => c.notNull().defaultTo(3600))
      .addColumn('total_capacity', 'bigint')
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('storage_configs_created_at').on('storage_configs').column('created_at').execute();

    await db.schema
      .createTable('files')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mimetype', 'varchar(255)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('storage_config_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('storage_path', 'text', (c) => c.notNull())
      .addColumn('etag', 'varchar(255)')
      .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('use_proxy', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_created_at').on('files').column('created_at').execute();
    await db.schema.createIndex('files_expires_at').on('files').column('expires_at').execute();
    await db.schema.createIndex('files_created_by').on('files').column('created_by').execute();
    await db.schema.createIndex('files_storage_config_id').on('files').column('storage_config_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('files').execute();
    await db.schema.dropTable('storage_configs').execute();
  },
};
