import type { FileListQuery } from '@clipnest/contract';
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { lockStorageUsage } from '../db/counters.js';
import type { Database, FilesTable } from '../db/schema.js';

export type FileRow = Selectable<FilesTable>;
export type FilePreviewRow = Pick<
  FileRow,
  'slug' | 'filename' | 'mimetype' | 'size' | 'password_hash' | 'expires_at' | 'max_views' | 'views' | 'encryption'
>;
export type FileWithConfig = FileRow & {
  storage_config_name: string | null;
  storage_type: string | null;
  /** The config's root folder ('' for the built-in local config and for S3). */
  storage_root_path: string | null;
};

function normalise<T extends FileRow>(row: T): T {
  return {
    ...row,
    size: Number(row.size),
    max_views: Number(row.max_views),
    views: Number(row.views),
    use_proxy: Number(row.use_proxy),
  };
}

/** Escapes LIKE wildcards so a search for "50%" means the text, not a pattern. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export class FileRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withConfig() {
    return this.db
      .selectFrom('files')
      .leftJoin('storage_configs', 'storage_configs.id', 'files.storage_config_id')
      .selectAll('files')
      .select([
        'storage_configs.name as storage_config_name',
        'storage_configs.storage_type as storage_type',
        'storage_configs.root_path as storage_root_path',
      ]);
  }

  async findById(id: string): Promise<FileWithConfig | undefined> {
    const row = await this.withConfig().where('files.id', '=', id).executeTakeFirst();
    return row && normalise(row);
  }

  async findBySlug(slug: string): Promise<FileWithConfig | undefined> {
    const row = await this.withConfig().where('files.slug', '=', slug).executeTakeFirst();
    return row && normalise(row);
  }

  /** A link preview's read (services/linkPreviewService.ts), by the slug index: no join, no counted view. */
  async findPreviewBySlug(slug: string): Promise<FilePreviewRow | undefined> {
    const row = await this.db
      .selectFrom('files')
      .select([
        'slug',
        'filename',
        'mimetype',
        'size',
        'password_hash',
        'expires_at',
        'max_views',
        'views',
        'encryption',
      ])
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row && { ...row, size: Number(row.size), max_views: Number(row.max_views), views: Number(row.views) };
  }

  async slugTaken(slug: string, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom('files').select('id').where('slug', '=', slug);
    if (exceptId) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async insert(row: FileRow): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  /**
   * Inserts the row only when its config's stored bytes plus the row's size stay within `capacity`, as one
   * transaction that holds the config's usage counter locked (db/counters.ts `lockStorageUsage`): parallel
   * uploads to one config, on one instance or several, can never together pass the capacity.
   * Answers the bytes the config held before and whether the row went in.
   */
  async insertWithinCapacity(row: FileRow, capacity: number): Promise<{ inserted: boolean; used: number }> {
    return this.db.transaction().execute(async (trx) => {
      const used = await lockStorageUsage(trx, row.storage_config_id);
      if (used + row.size > capacity) return { inserted: false, used };
      await trx.insertInto('files').values(row).execute();
      return { inserted: true, used };
    });
  }

  async update(id: string, changes: Updateable<FilesTable>): Promise<boolean> {
    const result = await this.db.updateTable('files').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Counts one view in one statement, only while the share is open: not expired and views left.
   * N parallel callers of a share with one view left: exactly one gets true.
   */
  async consumeView(id: string, nowIso: string): Promise<boolean> {
    const result = await this.db
      .updateTable('files')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .where((eb) => eb.or([eb('max_views', '=', 0), eb('views', '<', eb.ref('max_views'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Which of `paths` of a storage hold a file share's own object (not a share of a mounted object in place):
   * objects stored before shares had their own area (SHARE_AREA), which a mount could otherwise reach.
   */
  async shareObjectsAt(storageConfigId: string, paths: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < paths.length; i += 500) {
      const chunk = paths.slice(i, i + 500);
      if (chunk.length === 0) continue;
      const rows = await this.db
        .selectFrom('files')
        .select('storage_path')
        .where('storage_config_id', '=', storageConfigId)
        .where('mount_id', 'is', null)
        .where('storage_path', 'in', chunk)
        .execute();
      for (const row of rows) found.add(row.storage_path);
    }
    return found;
  }

  /**
   * true when a file share's own object lies below `dir` of a storage, outside `exceptFolder` (the share
   * area, whose objects are out of every mount's reach anyway). See shareObjectsAt.
   */
  async hasShareObjectsBelow(storageConfigId: string, dir: string, exceptFolder: string): Promise<boolean> {
    const escaped = dir.replace(/[\\%_]/g, (c) => `\\${c}`);
    const row = await this.db
      .selectFrom('files')
      .select('id')
      .where('storage_config_id', '=', storageConfigId)
      .where('mount_id', 'is', null)
      .where(sql<boolean>`storage_path like ${dir === '' ? '%' : `${escaped}/%`} escape '\\'`)
      .where(sql<boolean>`storage_path not like ${`${exceptFolder.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`} escape '\\'`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async list(query: FileListQuery, createdBy: string | undefined): Promise<{ rows: FileWithConfig[]; total: number }> {
    let base = this.db.selectFrom('files');
    if (createdBy !== undefined) base = base.where('files.created_by', '=', createdBy);
    if (query.s3_config_id) base = base.where('files.storage_config_id', '=', query.s3_config_id);
    if (query.search) {
      const pattern = likePattern(query.search.toLowerCase());
      base = base.where((eb) =>
        eb.or([
          eb(sql`lower(files.filename)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(files.slug)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(files.remark)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    const totalRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base
      .leftJoin('storage_configs', 'storage_configs.id', 'files.storage_config_id')
      .selectAll('files')
      .select([
        'storage_configs.name as storage_config_name',
        'storage_configs.storage_type as storage_type',
        'storage_configs.root_path as storage_root_path',
      ])
      .orderBy(`files.${query.sort}`, query.order)
      .orderBy('files.id', query.order)
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { rows: rows.map(normalise), total: Number(totalRow?.n ?? 0) };
  }
}
