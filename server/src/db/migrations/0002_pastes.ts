import type { Kysely, Migration } from 'kysely';

/** Text pastes (spec §3 "Text share"). Column names are shared with the dashboard and the backup module. */
export const pastes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('pastes')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('markdown'))
      .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text')
      .addColumn('expires_at', 'varchar(32)')
      .addColumn('max_views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pastes_created_at').on('pastes').column('created_at').execute();
    await db.schema.createIndex('pastes_expires_at').on('pastes').column('expires_at').execute();
    await db.schema.createIndex('pastes_created_by').on('pastes').column('created_by').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('pastes').execute();
  },
};
