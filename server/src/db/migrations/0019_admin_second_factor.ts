import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Two-factor sign-in and sessions (docs/security.md).
 * - `admin_second_factor`: one row per admin with TOTP. `totp_secret_encrypted` is the active secret (AES-GCM like
 *   storage secrets), `totp_pending_encrypted` one handed out by setup and not yet confirmed by a code;
 *   `totp_last_step` is the 30-second step of the last code accepted: a code of that step or an earlier one is
 *   never accepted again.
 * - `admin_recovery_codes`: SHA-256 of each single-use recovery code; `used_at` set when it is spent.
 * - `admin_passkeys`: WebAuthn credentials (public key, signature counter, transports as JSON), named by the admin.
 * - `admin_challenges`: WebAuthn challenges, single use, so every instance sharing the database can check them.
 * - `admin_tokens` becomes the session list: a public `id` (existing rows get a prefix of their hash), the user
 *   agent and address it was made from, how it signed in and when it was last used (written at most once a minute).
 */
export const adminSecondFactor: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('admin_second_factor')
      .addColumn('admin_id', 'varchar(64)', (c) => c.primaryKey().references('admins.id').onDelete('cascade'))
      .addColumn('totp_secret_encrypted', 'text')
      .addColumn('totp_pending_encrypted', 'text')
      .addColumn('totp_pending_at', 'varchar(32)')
      .addColumn('totp_enabled_at', 'varchar(32)')
      .addColumn('totp_last_step', 'bigint')
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('admin_recovery_codes')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('admin_id', 'varchar(64)', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('admin_recovery_codes_admin_id')
      .on('admin_recovery_codes')
      .column('admin_id')
      .execute();

    await db.schema
      .createTable('admin_passkeys')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('admin_id', 'varchar(64)', (c) => c.notNull().references('admins.id').onDelete('cascade'))
      .addColumn('credential_id', 'varchar(1024)', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('device_type', 'varchar(32)', (c) => c.notNull().defaultTo('singleDevice'))
      .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('admin_passkeys_admin_id').on('admin_passkeys').column('admin_id').execute();

    await db.schema
      .createTable('admin_challenges')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('admin_id', 'varchar(64)')
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('challenge', 'varchar(256)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('admin_challenges_expires_at').on('admin_challenges').column('expires_at').execute();

    // One column per statement: SQLite adds one at a time.
    await db.schema.alterTable('admin_tokens').addColumn('id', 'varchar(64)').execute();
    await db.schema.alterTable('admin_tokens').addColumn('user_agent', 'varchar(512)').execute();
    await db.schema.alterTable('admin_tokens').addColumn('address', 'varchar(64)').execute();
    await db.schema.alterTable('admin_tokens').addColumn('auth_method', 'varchar(16)').execute();
    await db.schema.alterTable('admin_tokens').addColumn('last_used_at', 'varchar(32)').execute();
    await sql`update admin_tokens set id = substr(token_hash, 1, 32), last_used_at = created_at`.execute(db);
    await db.schema.createIndex('admin_tokens_id').on('admin_tokens').column('id').unique().execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('admin_tokens_id').execute();
    for (const column of ['last_used_at', 'auth_method', 'address', 'user_agent', 'id']) {
      await db.schema.alterTable('admin_tokens').dropColumn(column).execute();
    }
    for (const table of ['admin_challenges', 'admin_passkeys', 'admin_recovery_codes', 'admin_second_factor']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
