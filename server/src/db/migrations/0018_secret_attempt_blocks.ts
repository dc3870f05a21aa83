import type { Kysely, Migration } from 'kysely';

/**
 * What the admin sees of a blocked client: once a bucket of `secret_attempts` reaches its limit, the row
 * keeps the client's address (`client`: IPv4, or an IPv6 /64), the door of the last wrong secret (`door`: login,
 * webdav, api_key, paste, file) and when the block began (`blocked_at`, ISO). All three stay null below the limit
 * (a client that never got blocked leaves only a hash) and are cleared when a new window opens.
 */
export const secretAttemptBlocks: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    // One column per statement: SQLite adds one at a time.
    await db.schema.alterTable('secret_attempts').addColumn('client', 'varchar(64)').execute();
    await db.schema.alterTable('secret_attempts').addColumn('door', 'varchar(16)').execute();
    await db.schema.alterTable('secret_attempts').addColumn('blocked_at', 'varchar(32)').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.alterTable('secret_attempts').dropColumn('blocked_at').execute();
    await db.schema.alterTable('secret_attempts').dropColumn('door').execute();
    await db.schema.alterTable('secret_attempts').dropColumn('client').execute();
  },
};
