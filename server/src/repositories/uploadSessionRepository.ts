import type { Kysely, Selectable } from 'kysely';
import type { Database, UploadPartsTable, UploadSessionsTable } from '../db/schema.js';

export type UploadSessionRow = Selectable<UploadSessionsTable>;
export type UploadPartRow = Selectable<UploadPartsTable>;

function normalise(row: UploadSessionRow): UploadSessionRow {
  return { ...row, size: Number(row.size), part_size: Number(row.part_size), part_count: Number(row.part_count) };
}

/** Direct uploads in progress (presigned PUT, multipart) and the parts recorded for them. */
export class UploadSessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: UploadSessionRow): Promise<void> {
    await this.db.insertInto('upload_sessions').values(row).execute();
  }

  async findById(id: string): Promise<UploadSessionRow | undefined> {
    const row = await this.db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && normalise(row);
  }

  async touch(id: string, now: string): Promise<void> {
    await this.db.updateTable('upload_sessions').set({ updated_at: now }).where('id', '=', id).execute();
  }

  /** The session owning a storage's multipart upload (fs multipart uploads are found by their upload id). */
  async findByUploadId(storageConfigId: string, uploadId: string): Promise<UploadSessionRow | undefined> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('storage_config_id', '=', storageConfigId)
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    return row && normalise(row);
  }

  /** The sessions of one kind for an object of a storage (fs presigns awaiting their commit), newest first. */
  async findByPath(storageConfigId: string, storagePath: string, kind: string): Promise<UploadSessionRow[]> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('storage_config_id', '=', storageConfigId)
      .where('storage_path', '=', storagePath)
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(normalise);
  }

  /** Deletes the sessions of one kind for an object of a storage (a committed fs presign); answers how many. */
  async deleteByPath(storageConfigId: string, storagePath: string, kind: string): Promise<number> {
    const result = await this.db
      .deleteFrom('upload_sessions')
      .where('storage_config_id', '=', storageConfigId)
      .where('storage_path', '=', storagePath)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Upload ids of the multipart uploads sessions own on one storage config. */
  async uploadIdsOf(storageConfigId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .select('upload_id')
      .where('storage_config_id', '=', storageConfigId)
      .where('upload_id', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.upload_id as string));
  }

  /** Sessions not touched since `before` (ISO), oldest first. */
  async staleSince(before: string, limit = 100): Promise<UploadSessionRow[]> {
    const rows = await this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('updated_at', '<', before)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map(normalise);
  }

  /** Deletes the session and its parts; answers whether the session existed. */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('upload_parts').where('session_id', '=', id).execute();
      const result = await trx.deleteFrom('upload_sessions').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Records parts (one statement); a part sent again replaces its earlier record. */
  async recordParts(parts: UploadPartRow[]): Promise<void> {
    if (parts.length === 0) return;
    await this.db
      .insertInto('upload_parts')
      .values(parts)
      .onConflict((oc) =>
        oc.columns(['session_id', 'part_number']).doUpdateSet((eb) => ({
          etag: eb.ref('excluded.etag'),
          size: eb.ref('excluded.size'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
  }

  async parts(sessionId: string): Promise<UploadPartRow[]> {
    const rows = await this.db
      .selectFrom('upload_parts')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('part_number')
      .execute();
    return rows.map((r) => ({ ...r, part_number: Number(r.part_number), size: Number(r.size) }));
  }
}
