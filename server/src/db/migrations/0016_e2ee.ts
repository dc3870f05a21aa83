import type { Kysely, Migration } from 'kysely';

/**
 * End-to-end encrypted shares (docs/encryption.md): `encryption` holds the public parameters as JSON
 * (version, algorithm, KDF, iterations, salt, IV or chunk size); null for ordinary shares. For an encrypted
 * paste `content` is base64url ciphertext; for an encrypted file the object is a CNF1 stream and
 * filename/mimetype are placeholders. The server never holds a key.
 */
export const e2ee: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('pastes').addColumn('encryption', 'text').execute();
    await db.schema.alterTable('files').addColumn('encryption', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('files').dropColumn('encryption').execute();
    await db.schema.alterTable('pastes').dropColumn('encryption').execute();
  },
};
