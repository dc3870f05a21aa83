import type { Kysely, Migration } from 'kysely';

export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('admins')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('admin_tokens')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('admin_id', 'varchar(64)', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('admin_tokens_admin_id').on('admin_tokens').column('admin_id').execute();
    await db.schema.createIndex('admin_tokens_expires_at').on('admin_tokens').column('expires_at').execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('key_encrypted', 'text', (c) => c.notNull())
      .addColumn('key_prefix', 'varchar(16)', (c) => c.notNull())
      .addColumn('permissions', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('role', 'varchar(32)', (c) => c.notNull().defaultTo('GENERAL'))
      .addColumn('basic_path', 'text', (c) => c.notNull().defaultTo('/'))
      .addColumn('is_guest', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used', 'varchar(32)')
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('group_id', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of ['settings', 'api_keys', 'admin_tokens', 'admins']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
