import type { Kysely, Migration } from 'kysely';

/**
 * WebDAV state shared by every instance (server/src/webdav):
 * - `dav_properties`: dead properties set by PROPPATCH, one row per virtual path, namespace and name;
 *   `value` is the property element as XML (with the namespace declarations it needs).
 * - `dav_locks`: LOCKs, so a lock holds across a restart and across instances. `path` is the locked
 *   virtual path; `depth` '0' or 'infinity'; `expires_at` ISO (compares as text on both databases).
 */
export const webdav: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('dav_properties')
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('ns', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('dav_properties_pk', ['path', 'ns', 'name'])
      .execute();
    await db.schema
      .createTable('dav_locks')
      .addColumn('token', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('depth', 'varchar(16)', (c) => c.notNull())
      .addColumn('scope', 'varchar(16)', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('principal', 'varchar(128)', (c) => c.notNull())
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dav_locks_expires_at').on('dav_locks').column('expires_at').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.dropTable('dav_locks').execute();
    await db.schema.dropTable('dav_properties').execute();
  },
};
