import type { Kysely, Migration } from 'kysely';

/**
 * Storage types beyond local, S3 and WebDAV carry fields of their own (an SFTP port and pinned host key, an FTP
 * TLS mode, an rclone remote's type): `options_json` holds those that are not secret, as one JSON object per row.
 * Secrets stay in `secret_encrypted` (a type with several secrets encrypts one JSON object of them).
 */
export const storageOptions: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('storage_configs')
      .addColumn('options_json', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.alterTable('storage_configs').dropColumn('options_json').execute();
  },
};
