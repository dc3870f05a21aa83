import type { Kysely, Migration } from 'kysely';

/**
 * Server-tracked direct uploads (presigned PUT and multipart, also from a URL): the session holds the
 * share's metadata until the commit creates the `files` row with the same id; `upload_parts` records
 * every part the client reported (or the server received), so resume works where ListParts is missing.
 */
export const uploadSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('upload_sessions')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('storage_config_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('storage_path', 'text', (c) => c.notNull())
      .addColumn('upload_id', 'text')
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('mimetype', 'varchar(255)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('part_size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('part_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('share_json', 'text', (c) => c.notNull())
      .addColumn('source_url', 'text')
      .addColumn('created_by', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('upload_sessions_created_at').on('upload_sessions').column('created_at').execute();
    await db.schema
      .createTable('upload_parts')
      .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('part_number', 'integer', (c) => c.notNull())
      .addColumn('etag', 'varchar(255)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('upload_parts_pk', ['session_id', 'part_number'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('upload_parts').execute();
    await db.schema.dropTable('upload_sessions').execute();
  },
};
