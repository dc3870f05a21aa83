import type { Kysely, Migration } from 'kysely';

/**
 * The audit log: one row per change made through the API or WebDAV, sign-in, failed key use or security event.
 * Append-only (no API deletes rows; only the retention sweep removes rows older than the setting says).
 * - `id`: sortable (time first), so rows of one millisecond keep their order.
 * - `at`: ISO time; `actor`: `admin:<name>`, `apikey:<id>` or `anonymous`; `actor_name`: a key's name.
 * - `action`: `paste.delete`, `auth.login.failed`, …; `target`: what it touched (ids, slugs, paths), never a secret.
 * - `outcome`: success | denied | failure | error (by the status class), `status`: the HTTP status.
 * - `client`: the client's address; `request_id`: the request's id (X-Request-Id); `detail`: a short reason.
 */
export const auditLog: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('at', 'varchar(32)', (c) => c.notNull())
      .addColumn('actor', 'varchar(160)', (c) => c.notNull())
      .addColumn('actor_name', 'varchar(200)')
      .addColumn('action', 'varchar(64)', (c) => c.notNull())
      .addColumn('target', 'varchar(1024)')
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('client', 'varchar(64)')
      .addColumn('request_id', 'varchar(128)')
      .addColumn('detail', 'varchar(512)')
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('audit_log_action_at').on('audit_log').columns(['action', 'at']).execute();
    await db.schema.createIndex('audit_log_actor_at').on('audit_log').columns(['actor', 'at']).execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.dropTable('audit_log').execute();
  },
};
