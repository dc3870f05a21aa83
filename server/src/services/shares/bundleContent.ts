// The public side of a bundle (a `folder_shares` row of type 'bundle'): its files listed flat at `/`, each
// read from its storage by name, and all of them as one zip. The file shares are read directly (their own
// password, expiry and view limit are not asked: the bundle's rules were checked by FolderShareService).
import type { ShareEntryView } from '@clipnest/contract';
import { AppError } from '../../errors.js';
import type { BundleFileRepository, BundleFileRow } from '../../repositories/bundleFileRepository.js';
import { isStorageError } from '../../storage/types.js';
import { servingPolicy } from '../../security/inlineContent.js';
import type { ContentMode, ContentRequest, ContentResult } from './serving/fileServingService.js';
import type { StorageConfigService } from '../storageConfigs/storageConfigService.js';
import { storageToAppError } from '../../vfs/errors.js';
import type { PreparedZip } from '../fs/zip/zipService.js';
import { archiveName } from '../fs/zip/zipService.js';
import { streamZip, zipEntryName, zipLength, type ZipSource } from '../fs/zip/zipStream.js';

export class BundleContent {
  constructor(
    private readonly deps: {
      bundleFiles: BundleFileRepository;
      storageConfigs: Pick<StorageConfigService, 'requireRow' | 'driverOf'>;
    },
  ) {}

  private entryView(row: BundleFileRow): ShareEntryView {
    return {
      name: row.name,
      path: `/${row.name}`,
      isDirectory: false,
      size: row.size,
      modified: row.created_at,
      mimetype: row.mimetype,
    };
  }

  /** A bundle has no folders: only `/` lists. */
  private assertRoot(relative: string): void {
    if (relative !== '/' && relative !== '') throw AppError.notFound('not found in this share');
  }

  /** `/name` (the only paths a bundle has) → the name; anything else is not in the share. */
  private nameOf(relative: string): string {
    const name = relative.startsWith('/') ? relative.slice(1) : relative;
    if (!name || name.includes('/')) throw AppError.notFound('not found in this share');
    return name;
  }

  async list(shareId: string, relative: string, page: { limit?: number | undefined; offset?: number | undefined }) {
    this.assertRoot(relative);
    const limit = page.limit ?? 1000;
    const offset = page.offset ?? 0;
    const { rows, total } = await this.deps.bundleFiles.list(shareId, { limit, offset });
    return { path: '/', items: rows.map((r) => this.entryView(r)), total, limit, offset };
  }

  private async driverOf(row: BundleFileRow) {
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => {
      throw AppError.notFound('the storage of this file no longer exists');
    });
    return this.deps.storageConfigs.driverOf(config);
  }

  /** One file's bytes by the content rules of the fs API (Range, ETag, sandboxed attachments). */
  async file(
    shareId: string,
    relative: string,
    request: { mode: ContentMode; head: boolean; conditional: ContentRequest['conditional'] },
  ): Promise<{ result: ContentResult; firstByte: boolean }> {
    const name = this.nameOf(relative);
    const row = await this.deps.bundleFiles.findByName(shareId, name);
    if (!row) throw AppError.notFound('not found in this share');
    const etag = row.etag ? (row.etag.startsWith('"') ? row.etag : `"${row.etag}"`) : `"${row.file_id}-${row.size}"`;
    const lastModified = new Date(row.created_at);
    const policy = servingPolicy(row.mimetype);
    const disposition: ContentMode = request.mode === 'inline' && policy.inline ? 'inline' : 'attachment';
    const cond = request.conditional({ etag, lastModified, size: row.size });
    if (cond.notModified) return { result: { kind: 'not_modified', etag, lastModified }, firstByte: false };
    if (cond.range === 'unsatisfiable') return { result: { kind: 'unsatisfiable', size: row.size }, firstByte: false };
    const range = cond.range;
    const base = { filename: row.name, policy, disposition, etag, lastModified, size: row.size };
    if (request.head) return { result: { kind: 'head', ...base, ...(range ? { range } : {}) }, firstByte: false };
    const driver = await this.driverOf(row);
    try {
      const read = await driver.read(row.storage_path, range ? { range } : undefined);
      return { result: { kind: 'body', read, ...base }, firstByte: range === undefined || range.start === 0 };
    } catch (error) {
      if (isStorageError(error, 'range'))
        return { result: { kind: 'unsatisfiable', size: row.size }, firstByte: false };
      throw storageToAppError(error);
    }
  }

  /** Every file of the bundle as one streamed zip (`/` only). */
  async zip(shareId: string, relative: string, name: string): Promise<PreparedZip> {
    this.assertRoot(relative);
    const { rows } = await this.deps.bundleFiles.list(shareId);
    const entries: ZipSource[] = [];
    for (const row of rows) {
      const driver = await this.driverOf(row);
      entries.push({
        name: zipEntryName([row.name]) || row.file_id,
        isDir: false,
        size: row.size,
        lastModified: new Date(row.created_at),
        open: async (signal) => (await driver.read(row.storage_path, { signal })).stream,
      });
    }
    return { filename: archiveName(name || 'bundle', []), length: zipLength(entries), open: () => streamZip(entries) };
  }
}
