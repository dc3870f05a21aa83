import type { Kysely, Migration } from 'kysely';

/**
 * Counters of the secret-attempt limiter (services/secretAttemptLimiter.ts), shared by every instance:
 * one row per bucket (a hash of kind, client and target). `pending` counts checks in flight, `failures`
 * wrong secrets in the window ending at `window_ends_at`; `granted` says whether the last reservation
 * was granted (read back with RETURNING, so one statement both decides and records).
 */
export const secretAttempts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('secret_attempts')
      .addColumn('bucket', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('pending', 'integer', (c) => c.notNull())
      .addColumn('granted', 'integer', (c) => c.notNull())
      .addColumn('window_ends_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('pending_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('secret_attempts_window_ends_at')
      .on('secret_attempts')
      .column('window_ends_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('secret_attempts').execute();
  },
};
