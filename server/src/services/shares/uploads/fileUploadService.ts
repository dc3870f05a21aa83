import { pipeline } from 'node:stream';
import type { FileView, UploadFields } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { newId } from '../../../lib/ids.js';
import type { FileRepository } from '../../../repositories/fileRepository.js';
import { hashPassword } from '../../../security/secrets.js';
import { normalizePath, shareObjectPath } from '../../../storage/paths.js';
import { ByteMeter, nodeFromBody } from '../../../storage/streams.js';
import { isStorageError, type WriteBody } from '../../../storage/types.js';
import { shareMimetype } from '../../../security/inlineContent.js';
import {
  checkEncryptedFields,
  cleanFilename,
  formatBytes,
  insufficientStorage,
  MULTIPART_OVERHEAD_ALLOWANCE,
  storageName,
  tooLargeError,
  type UploadMeta,
} from '../fileShareRules.js';
import type { FileShareService } from '../fileShareService.js';
import type { Principal } from '../../../auth/principal.js';
import { isBuiltin, type StorageConfigService } from '../../storageConfigs/storageConfigService.js';
import { storageToAppError } from '../../../vfs/errors.js';

/** Upload orchestration: checks before the body, the bytes into storage, then the share row (via FileShareService). */
export class FileUploadService {
  constructor(
    private readonly deps: {
      files: FileRepository;
      shares: FileShareService;
      storageConfigs: StorageConfigService;
    },
  ) {}

  async maxUploadSize(): Promise<number> {
    return this.deps.shares.maxUploadSize();
  }

  /** Checks that need no bytes: run before the body is read (Content-Length, slug, config, quota). */
  /** 413 when the request's Content-Length alone shows the file cannot fit under the max upload size. */
  async checkDeclaredSize(requestLength: number | undefined): Promise<number> {
    const maxBytes = await this.deps.shares.maxUploadSize();
    if (requestLength !== undefined && requestLength > maxBytes + MULTIPART_OVERHEAD_ALLOWANCE) {
      throw tooLargeError(maxBytes, ` (request is ${formatBytes(requestLength)})`);
    }
    return maxBytes;
  }

  async prepareUpload(fields: UploadFields, requestLength?: number) {
    checkEncryptedFields(fields);
    const maxBytes = await this.checkDeclaredSize(requestLength);
    const config = await this.deps.storageConfigs.resolveForUpload(fields.s3_config_id);
    let folder: string;
    try {
      folder = normalizePath([config.default_folder, fields.path ?? ''].filter(Boolean).join('/'));
    } catch (error) {
      throw AppError.validation(`invalid path: ${(error as Error).message}`, [
        { path: 'path', message: 'may not contain "..", encoded dots or slashes, backslashes or control characters' },
      ]);
    }
    if (fields.slug && (await this.deps.files.slugTaken(fields.slug))) {
      throw AppError.slugTaken();
    }
    let remaining = Number.POSITIVE_INFINITY;
    const capacity = config.total_capacity;
    if (capacity !== null) {
      const used = await this.deps.storageConfigs.usedBytes(config.id);
      remaining = Math.max(0, capacity - used);
      if (requestLength !== undefined && requestLength - MULTIPART_OVERHEAD_ALLOWANCE > remaining) {
        throw insufficientStorage(requestLength - MULTIPART_OVERHEAD_ALLOWANCE, remaining, capacity, true);
      }
    }
    // Share objects of a storage that can be mounted live in its share area, out of every mount's reach
    // (the built-in storage can never be mounted: its shares stay where they always were).
    const inShareArea = !isBuiltin(config);
    return { config, folder, inShareArea, maxBytes, remaining };
  }

  /**
   * Streams the file into its storage, then records the share. On any failure nothing stays behind:
   * no object, no row.
   */
  async upload(
    principal: Principal,
    fields: UploadFields,
    source: WriteBody,
    meta: UploadMeta,
    prepared: Awaited<ReturnType<FileUploadService['prepareUpload']>>,
  ): Promise<FileView> {
    const filename = cleanFilename(meta.filename);
    const { config, folder, inShareArea, maxBytes, remaining } = prepared;
    const limit = Math.min(maxBytes, remaining);
    const declaredSize = meta.size ?? fields.size;
    if (declaredSize !== undefined && declaredSize > limit) {
      throw declaredSize > maxBytes
        ? tooLargeError(maxBytes)
        : insufficientStorage(declaredSize, remaining, config.total_capacity ?? 0, false);
    }
    const driver = this.deps.storageConfigs.driverOf(config);
    const storagePath = shareObjectPath(folder, storageName(filename), inShareArea);
    let mimetype = shareMimetype(filename, fields.mimetype, meta.partMimetype);

    // Counted and handed to the driver on the Node side: no Web stream hop per chunk.
    const meter = new ByteMeter({ maxBytes: Number.isFinite(limit) ? limit : undefined, path: storagePath });
    const body = pipeline(nodeFromBody(source), meter, () => undefined);
    const tooLarge = () =>
      limit === maxBytes
        ? tooLargeError(maxBytes)
        : insufficientStorage(meter.bytes, remaining, config.total_capacity ?? 0, true);

    let written: { size: number; etag?: string };
    try {
      const entry = await driver.write(storagePath, body, {
        overwrite: false,
        contentType: mimetype,
        size: declaredSize,
        maxBytes: Number.isFinite(limit) ? limit : undefined,
        signal: meta.signal,
      });
      written = { size: entry.size, etag: entry.etag };
    } catch (error) {
      await driver.remove(storagePath).catch(() => undefined);
      if (isStorageError(error, 'too_large')) throw tooLarge();
      if (error instanceof AppError) throw error;
      if (isStorageError(error, 'quota')) {
        throw new AppError(
          'QUOTA_EXCEEDED',
          `insufficient storage: the storage is full (file size at least ${formatBytes(meter.bytes)})`,
        );
      }
      throw storageToAppError(error);
    }
    const size = meter.bytes;
    if (size === 0) {
      await driver.remove(storagePath).catch(() => undefined);
      throw AppError.validation('the file is empty', [{ path: 'file', message: 'the file is empty' }]);
    }
    if (meta.finalFields) {
      try {
        fields = await meta.finalFields();
      } catch (error) {
        await driver.remove(storagePath).catch(() => undefined);
        throw error;
      }
      mimetype = shareMimetype(filename, fields.mimetype, meta.partMimetype);
      try {
        checkEncryptedFields(fields);
      } catch (error) {
        await driver.remove(storagePath).catch(() => undefined);
        throw error;
      }
    }

    const row = await this.deps.shares.newShareRow(principal, {
      id: meta.id ?? newId(),
      configId: config.id,
      storagePath,
      filename,
      mimetype,
      size,
      etag: written.etag ?? null,
      slug: fields.slug,
      remark: fields.remark,
      passwordHash:
        meta.passwordHash !== undefined
          ? meta.passwordHash
          : fields.password
            ? await hashPassword(fields.password)
            : null,
      expiresIn: fields.expires_in,
      maxViews: fields.max_views,
      useProxy: fields.use_proxy,
      encryption: fields.encryption,
    });
    try {
      // Parallel uploads may each have fit alone: the row goes in only while the capacity still holds it.
      await this.deps.shares.insertWithSlug(row, fields.slug !== undefined, config.total_capacity);
    } catch (error) {
      await driver.remove(storagePath).catch(() => undefined);
      throw error;
    }
    return this.deps.shares.viewOf(row.id);
  }

  /**
   * Checks for an upload whose bytes do not pass through POST /api/upload: size against the max upload
   * size and the config's remaining capacity, slug free, folder valid. Answers where the object goes.
   */
  async planDirectUpload(fields: UploadFields, rawFilename: string, size: number, browserType?: string) {
    const filename = cleanFilename(rawFilename);
    const { config, folder, inShareArea, maxBytes, remaining } = await this.prepareUpload(fields);
    if (size > maxBytes) throw tooLargeError(maxBytes);
    if (size > remaining) throw insufficientStorage(size, remaining, config.total_capacity ?? 0, false);
    const storagePath = shareObjectPath(folder, storageName(filename), inShareArea);
    const mimetype = shareMimetype(filename, fields.mimetype, browserType);
    return { config, storagePath, filename, mimetype, driver: this.deps.storageConfigs.driverOf(config) };
  }
}
