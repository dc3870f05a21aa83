import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, FolderSharesTable } from '../db/schema.js';
import { SlugShareRows } from './slugShareRows.js';

export type FolderShareRow = Selectable<FolderSharesTable>;

function normalise(row: FolderShareRow): FolderShareRow {
  return {
    ...row,
    max_downloads: Number(row.max_downloads),
    downloads: Number(row.downloads),
    views: Number(row.views),
  };
}

/** Rows of `folder_shares` (0020). */
export class FolderShareRepository {
  private readonly rows: SlugShareRows<FolderShareRow>;

  constructor(private readonly db: Kysely<Database>) {
    this.rows = new SlugShareRows(db, 'folder_shares', normalise);
  }

  insert(row: FolderShareRow): Promise<void> {
    return this.rows.insert(row);
  }

  findById(id: string): Promise<FolderShareRow | undefined> {
    return this.rows.findById(id);
  }

  findBySlug(slug: string): Promise<FolderShareRow | undefined> {
    return this.rows.findBySlug(slug);
  }

  list(filter: {
    createdBy?: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: FolderShareRow[]; total: number }> {
    return this.rows.list(filter);
  }

  async update(id: string, changes: Updateable<FolderSharesTable>): Promise<boolean> {
    const result = await this.db.updateTable('folder_shares').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('folder_shares').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Counts one download, in one conditional statement: only while the share is open (not expired, under
   * `max_downloads`), so N parallel downloads at the limit see exactly the remaining number succeed, on one
   * instance or several.
   */
  async consumeDownload(id: string, nowIso: string): Promise<boolean> {
    const result = await this.db
      .updateTable('folder_shares')
      .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .where((eb) => eb.or([eb('max_downloads', '=', 0), eb('downloads', '<', eb.ref('max_downloads'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async countView(id: string): Promise<void> {
    await this.db
      .updateTable('folder_shares')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
}
