import {
  E2EE_FILE_PLACEHOLDER_NAME,
  E2EE_FILE_PLACEHOLDER_TYPE,
  fileKindOf,
  parseStoredE2ee,
  maxUploadBytes,
  type BatchDeleteFilesResult,
  type DeleteMode,
  type FileListQuery,
  type FileView,
  type ListPage,
  type UpdateFile,
} from '@clipnest/contract';
import type { Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { FilesTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isWellFormedId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { FileRepository, FileRow, FileWithConfig } from '../../repositories/fileRepository.js';
import type { StorageConfigRow } from '../../repositories/storageConfigRepository.js';
import { hashPassword } from '../../security/secrets.js';
import { shareFolderOf } from '../../storage/paths.js';
import { isStorageError, type StorageDriver } from '../../storage/types.js';
import { cleanFilename, insufficientStorage, randomSlug, tooLargeError, type NewShare } from './fileShareRules.js';
import { creatorId, type Principal } from '../../auth/principal.js';
import type { SettingsService } from '../admin/settingsService.js';
import type { StorageConfigService } from '../storageConfigs/storageConfigService.js';
import { storageToAppError } from '../../vfs/errors.js';

/** File share rows: create (for a stored object), view, list, update, delete; the admin listing. */
export class FileShareService {
  constructor(
    private readonly deps: {
      files: FileRepository;
      storageConfigs: StorageConfigService;
      settings: SettingsService;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  // ---------- views ----------

  toView(row: FileWithConfig, config?: Pick<StorageConfigRow, 'custom_host'>): FileView {
    const folder = shareFolderOf(row.storage_path);
    const encodedPath = row.storage_path.split('/').map(encodeURIComponent).join('/');
    return {
      id: row.id,
      file_id: row.id,
      slug: row.slug,
      filename: row.filename,
      mimetype: row.mimetype,
      size: row.size,
      type: fileKindOf(row.filename, row.mimetype),
      path: `/${folder}`,
      remark: row.remark,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: row.views,
      use_proxy: row.use_proxy === 1,
      s3_config_id: row.storage_config_id,
      storage_config_name: row.storage_config_name,
      storage_config_builtin: row.storage_type === 'local' && row.storage_root_path === '',
      provider_type: row.storage_type ?? 'unknown',
      storage_path: row.storage_path,
      s3_url: config?.custom_host ? `${config.custom_host}/${encodedPath}` : null,
      etag: row.etag,
      link: `/file/${row.slug}`,
      preview_url: `/api/file-view/${encodeURIComponent(row.slug)}`,
      download_url: `/api/file-download/${encodeURIComponent(row.slug)}`,
      encryption: parseStoredE2ee(row.encryption),
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async viewOf(id: string): Promise<FileView> {
    const row = await this.deps.files.findById(id);
    if (!row) throw AppError.notFound('file not found');
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => undefined);
    return this.toView(row, config);
  }

  async maxUploadSize(): Promise<number> {
    const values = await this.deps.settings.values();
    return maxUploadBytes(values);
  }

  /**
   * The share row for an object that is already in its storage (commit of a direct upload). `input.size`
   * is the object's real size (stat'd from the storage): checked again against the max upload size and,
   * atomically with the insert, against the config's capacity (parallel commits cannot pass it together).
   */
  async createShareForStoredObject(principal: Principal, input: NewShare): Promise<FileView> {
    const maxBytes = await this.maxUploadSize();
    if (input.size > maxBytes) throw tooLargeError(maxBytes);
    const config = await this.deps.storageConfigs.requireRow(input.configId);
    const row = await this.newShareRow(principal, input);
    await this.insertWithSlug(row, input.slug !== undefined && input.slug !== '', config.total_capacity);
    return this.viewOf(row.id);
  }

  /** A new share's row: expiry from hours, proxy mode from the setting when not chosen. */
  async newShareRow(principal: Principal, input: NewShare): Promise<FileRow> {
    const now = this.deps.clock.now();
    const settings = await this.deps.settings.values();
    return {
      id: input.id,
      slug: input.slug ?? '',
      // The real name and type of an encrypted file are in its encrypted header.
      filename: input.encryption ? E2EE_FILE_PLACEHOLDER_NAME : input.filename,
      mimetype: input.encryption ? E2EE_FILE_PLACEHOLDER_TYPE : input.mimetype,
      size: input.size,
      storage_config_id: input.configId,
      storage_path: input.storagePath,
      etag: input.etag,
      remark: input.remark ?? '',
      password_hash: input.passwordHash ?? null,
      expires_at: input.expiresIn ? new Date(now.getTime() + input.expiresIn * 3600_000).toISOString() : null,
      max_views: input.maxViews ?? 0,
      views: 0,
      use_proxy: (input.useProxy ?? settings.default_use_proxy) ? 1 : 0,
      created_by: creatorId(principal),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      mount_id: input.mountId ?? null,
      encryption: input.encryption ? JSON.stringify(input.encryption) : null,
    };
  }

  /** true when a share row with this id exists (a direct upload was committed). */
  async exists(id: string): Promise<boolean> {
    return (await this.deps.files.findById(id)) !== undefined;
  }

  /** Removes a share just created (row and object), e.g. when the request failed after the file was stored. */
  async discard(row: Pick<FileRow, 'id' | 'storage_config_id' | 'storage_path'>): Promise<void> {
    await this.deps.files.delete(row.id);
    await this.removeObject(row).catch((error: unknown) =>
      this.deps.logger.error(`could not remove the object of discarded upload ${row.id}`, error),
    );
  }

  /** Inserts the row (with a fresh random slug per attempt unless custom); within `capacity` when not null. */
  async insertWithSlug(row: FileRow, custom: boolean, capacity: number | null): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!custom) row.slug = randomSlug(attempt < 3 ? 6 : 10);
      try {
        if (capacity === null) {
          await this.deps.files.insert(row);
        } else {
          const { inserted, used } = await this.deps.files.insertWithinCapacity(row, capacity);
          if (!inserted) throw insufficientStorage(row.size, Math.max(0, capacity - used), capacity, false);
        }
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (custom || attempt >= 5) throw AppError.slugTaken();
      }
    }
  }

  // ---------- management ----------

  private assertCreator(principal: Principal, row: FileRow): void {
    if (principal.type === 'admin') return;
    if (row.created_by !== creatorId(principal)) throw AppError.forbidden('you can only manage files you uploaded');
  }

  private async requireOwned(principal: Principal, id: string): Promise<FileWithConfig> {
    const row = isWellFormedId(id) ? await this.deps.files.findById(id) : undefined;
    if (!row) throw AppError.notFound(`file ${JSON.stringify(id)} not found`);
    this.assertCreator(principal, row);
    return row;
  }

  async list(principal: Principal, query: FileListQuery): Promise<ListPage<FileView>> {
    const createdBy = principal.type === 'admin' ? undefined : creatorId(principal);
    const { rows, total } = await this.deps.files.list(query, createdBy);
    const hosts = new Map<string, string>();
    for (const id of new Set(rows.map((r) => r.storage_config_id))) {
      const config = await this.deps.storageConfigs.requireRow(id).catch(() => undefined);
      hosts.set(id, config?.custom_host ?? '');
    }
    return {
      items: rows.map((r) => this.toView(r, { custom_host: hosts.get(r.storage_config_id) ?? '' })),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  }

  async get(principal: Principal, id: string): Promise<FileView> {
    const row = await this.requireOwned(principal, id);
    return this.viewOf(row.id);
  }

  async update(principal: Principal, id: string, input: UpdateFile): Promise<FileView> {
    const row = await this.requireOwned(principal, id);
    const now = this.deps.clock.now();
    const changes: Updateable<FilesTable> = { updated_at: now.toISOString() };
    if (input.slug !== undefined && input.slug !== row.slug) {
      if (await this.deps.files.slugTaken(input.slug, row.id)) {
        throw AppError.slugTaken();
      }
      changes.slug = input.slug;
    }
    if (input.remark !== undefined) changes.remark = input.remark;
    if (input.filename !== undefined) changes.filename = cleanFilename(input.filename);
    if (input.password !== undefined) {
      changes.password_hash =
        input.password === null || input.password === '' ? null : await hashPassword(input.password);
    }
    if (input.expires_in !== undefined) {
      changes.expires_at =
        input.expires_in === 0 ? null : new Date(now.getTime() + input.expires_in * 3600_000).toISOString();
    }
    if (input.max_views !== undefined) changes.max_views = input.max_views;
    if (input.use_proxy !== undefined) changes.use_proxy = input.use_proxy ? 1 : 0;
    try {
      await this.deps.files.update(row.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.slugTaken();
      throw error;
    }
    return this.viewOf(row.id);
  }

  async batchDelete(principal: Principal, ids: string[], mode: DeleteMode): Promise<BatchDeleteFilesResult> {
    const failed: BatchDeleteFilesResult['failed'] = [];
    let deleted = 0;
    for (const id of new Set(ids)) {
      try {
        const row = await this.requireOwned(principal, id);
        if (mode === 'both') await this.removeObject(row);
        if (await this.deps.files.delete(row.id)) deleted++;
      } catch (error) {
        const message = error instanceof AppError ? error.message : 'could not delete the stored object';
        if (!(error instanceof AppError)) this.deps.logger.error(`delete of file ${id} failed`, error);
        failed.push({ id, message });
      }
    }
    return { deleted, failed };
  }

  private async removeObject(
    row: Pick<FileRow, 'storage_config_id' | 'storage_path'> & { mount_id?: string | null },
  ): Promise<void> {
    if (row.mount_id) return; // a share of a mounted object in place: the object stays in its mount
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => undefined);
    if (!config) return; // the storage is gone: nothing left to remove
    const driver: StorageDriver = this.deps.storageConfigs.driverOf(config);
    try {
      await driver.remove(row.storage_path);
    } catch (error) {
      if (isStorageError(error, 'not_found')) return;
      throw storageToAppError(error);
    }
  }
}
