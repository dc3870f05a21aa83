import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** One file of a bundle, with what the public routes need of its share row. */
export interface BundleFileRow {
  share_id: string;
  file_id: string;
  name: string;
  position: number;
  size: number;
  mimetype: string;
  etag: string | null;
  storage_config_id: string;
  storage_path: string;
  created_at: string;
}

/** Rows of `bundle_files` (0023), joined with the file shares they name. */
export class BundleFileRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(
    rows: { id: string; share_id: string; file_id: string; name: string; position: number }[],
  ): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('bundle_files').values(rows).execute();
  }

  private joined() {
    return this.db
      .selectFrom('bundle_files')
      .innerJoin('files', 'files.id', 'bundle_files.file_id')
      .select([
        'bundle_files.share_id',
        'bundle_files.file_id',
        'bundle_files.name',
        'bundle_files.position',
        'files.size',
        'files.mimetype',
        'files.etag',
        'files.storage_config_id',
        'files.storage_path',
        'files.created_at',
      ]);
  }

  private normalise(row: BundleFileRow): BundleFileRow {
    return { ...row, size: Number(row.size), position: Number(row.position) };
  }

  /** The bundle's files still stored (a file share deleted since is no longer part of it), in order. */
  async list(
    shareId: string,
    page?: { limit: number; offset: number },
  ): Promise<{ rows: BundleFileRow[]; total: number }> {
    const total = await this.db
      .selectFrom('bundle_files')
      .innerJoin('files', 'files.id', 'bundle_files.file_id')
      .where('bundle_files.share_id', '=', shareId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    let query = this.joined().where('bundle_files.share_id', '=', shareId).orderBy('bundle_files.position');
    if (page) query = query.limit(page.limit).offset(page.offset);
    const rows = await query.execute();
    return { rows: rows.map((r) => this.normalise(r)), total: Number(total?.n ?? 0) };
  }

  async findByName(shareId: string, name: string): Promise<BundleFileRow | undefined> {
    const row = await this.joined()
      .where('bundle_files.share_id', '=', shareId)
      .where('bundle_files.name', '=', name)
      .executeTakeFirst();
    return row && this.normalise(row);
  }

  async deleteOfShare(shareId: string): Promise<void> {
    await this.db.deleteFrom('bundle_files').where('share_id', '=', shareId).execute();
  }
}
