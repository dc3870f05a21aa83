import type { Kysely, Selectable } from 'kysely';
import type { Database, UploadRequestFilesTable, UploadRequestsTable } from '../db/schema.js';
import { SlugShareRows } from './slugShareRows.js';

export type UploadRequestRow = Selectable<UploadRequestsTable>;
export type UploadRequestFileRow = Selectable<UploadRequestFilesTable>;

function normalise(row: UploadRequestRow): UploadRequestRow {
  return {
    ...row,
    max_files: Number(row.max_files),
    max_bytes: Number(row.max_bytes),
    max_file_bytes: Number(row.max_file_bytes),
    files_received: Number(row.files_received),
    bytes_received: Number(row.bytes_received),
  };
}

/** Rows of `upload_requests` and `upload_request_files` (0023). */
export class UploadRequestRepository {
  private readonly rows: SlugShareRows<UploadRequestRow>;

  constructor(private readonly db: Kysely<Database>) {
    this.rows = new SlugShareRows(db, 'upload_requests', normalise);
  }

  insert(row: UploadRequestRow): Promise<void> {
    return this.rows.insert(row);
  }

  findById(id: string): Promise<UploadRequestRow | undefined> {
    return this.rows.findById(id);
  }

  findBySlug(slug: string): Promise<UploadRequestRow | undefined> {
    return this.rows.findBySlug(slug);
  }

  list(filter: {
    createdBy?: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: UploadRequestRow[]; total: number }> {
    return this.rows.list(filter);
  }

  async revoke(id: string, nowIso: string): Promise<void> {
    await this.db
      .updateTable('upload_requests')
      .set({ revoked_at: nowIso, updated_at: nowIso })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Reserves `files` files and `bytes` bytes in one conditional statement: only while the request is open and
   * the counters stay within its limits, so parallel uploads at a limit never exceed it (one instance or several).
   */
  async reserve(id: string, files: number, bytes: number, nowIso: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_requests')
      .set((eb) => ({
        files_received: eb('files_received', '+', files),
        bytes_received: eb('bytes_received', '+', bytes),
        last_upload_at: nowIso,
      }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .where((eb) => eb.or([eb('max_files', '=', 0), eb(eb('files_received', '+', files), '<=', eb.ref('max_files'))]))
      .where((eb) => eb.or([eb('max_bytes', '=', 0), eb(eb('bytes_received', '+', bytes), '<=', eb.ref('max_bytes'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives back what a reservation held and was not stored. */
  async release(id: string, files: number, bytes: number): Promise<void> {
    if (files === 0 && bytes === 0) return;
    await this.db
      .updateTable('upload_requests')
      .set((eb) => ({
        files_received: eb('files_received', '-', files),
        bytes_received: eb('bytes_received', '-', bytes),
      }))
      .where('id', '=', id)
      .execute();
  }

  async recordFile(row: UploadRequestFileRow): Promise<void> {
    await this.db.insertInto('upload_request_files').values(row).execute();
  }

  /** The newest files received, through the creator's requests (undefined: everyone's). */
  async recentFiles(
    createdBy: string | undefined,
    limit: number,
  ): Promise<(UploadRequestFileRow & { request_slug: string })[]> {
    let query = this.db
      .selectFrom('upload_request_files')
      .innerJoin('upload_requests', 'upload_requests.id', 'upload_request_files.request_id')
      .selectAll('upload_request_files')
      .select('upload_requests.slug as request_slug');
    if (createdBy !== undefined) query = query.where('upload_requests.created_by', '=', createdBy);
    const rows = await query
      .orderBy('upload_request_files.created_at', 'desc')
      .orderBy('upload_request_files.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  async count(createdBy: string | undefined): Promise<number> {
    let query = this.db.selectFrom('upload_requests');
    if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
    const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
