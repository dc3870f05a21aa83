import type { Kysely, Migration } from 'kysely';

/**
 * Local storage configs get their own root folder. Existing rows keep '' = the built-in local storage
 * (DATA_DIR/storage/local, as before); S3 rows keep '' (unused).
 */
export const localStorageRoots: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('storage_configs')
      .addColumn('root_path', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('storage_configs').dropColumn('root_path').execute();
  },
};
