import type { Kysely, Migration } from 'kysely';

/**
 * `login_flows`: Nextcloud Login Flow v2 (an app asks to sign in, the admin approves it in the browser, the app
 * collects an app password). Both tokens are stored as SHA-256 hashes only; the app password waits encrypted
 * between the approval and the app's next poll, then is cleared. Rows live 20 minutes (swept an hour later).
 */
export const loginFlows: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('login_flows')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('login_token_hash', 'varchar(64)')
      .addColumn('poll_token_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('client_name', 'varchar(128)', (c) => c.notNull())
      .addColumn('user_agent', 'varchar(512)', (c) => c.notNull())
      .addColumn('address', 'varchar(64)', (c) => c.notNull())
      .addColumn('api_key_id', 'varchar(64)')
      .addColumn('login_name', 'varchar(128)')
      .addColumn('app_password_encrypted', 'text')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_flows_login').on('login_flows').column('login_token_hash').unique().execute();
    await db.schema.createIndex('login_flows_poll').on('login_flows').column('poll_token_hash').unique().execute();
    await db.schema.createIndex('login_flows_expires_at').on('login_flows').column('expires_at').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.dropTable('login_flows').execute();
  },
};
