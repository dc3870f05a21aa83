// Uploads whose bytes go straight to the storage (presigned PUT, resumable multipart), also used by
// the client-side URL upload. The server keeps a session per upload (id = the future file id) with
// the share's fields and a record of every part, so resume works on backends without ListParts
// (s3rver) and a commit is checked against what is really stored.
import type { E2eeParams, FileView, PresignResult, UploadFields } from '@clipnest/contract';
import { UPLOAD_SESSION_TTL_MS } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import { isWellFormedId, newId } from '../../../lib/ids.js';
import type { Logger } from '../../../lib/logger.js';
import type { UploadSessionRepository, UploadSessionRow } from '../../../repositories/uploadSessionRepository.js';
import { hashPassword } from '../../../security/secrets.js';
import { isStorageError, type StorageDriver } from '../../../storage/types.js';
import type { FileShareService } from '../fileShareService.js';
import type { FileUploadService } from './fileUploadService.js';
import { unquoteEtag as unquote } from '../../../security/inlineContent.js';
import { creatorId, type Principal } from '../../../auth/principal.js';
import type { StorageConfigService } from '../../storageConfigs/storageConfigService.js';
import { storageToAppError } from '../../../vfs/errors.js';

const MiB = 1024 * 1024;
/** A presigned PUT URL lives this long plus one second per MiB (capped by the config's signature_expires_in). */
export const PUT_URL_BASE_TTL_S = 5 * 60;

/**
 * Lifetime of a presigned PUT URL for `size` bytes: short, since S3 checks it when the PUT starts (the client
 * PUTs right after presign); a little longer for big files, whose PUT may be retried. Never past the config's
 * signature expiry, never under a minute. After it, the URL cannot replace the committed object.
 */
export function putUrlTtl(size: number, signatureExpiresIn: number): number {
  return Math.max(60, Math.min(signatureExpiresIn, PUT_URL_BASE_TTL_S + Math.ceil(size / MiB)));
}

/** A session of a direct upload into a mount (/api/fs/presign, /api/fs/multipart/*), not of a file share. */
export function isFsSession(row: Pick<UploadSessionRow, 'kind'>): boolean {
  return row.kind.startsWith('fs-');
}

interface ShareJson {
  slug?: string;
  remark?: string;
  password_hash?: string | null;
  expires_in?: number;
  max_views?: number;
  use_proxy?: boolean;
  encryption?: E2eeParams;
}

export interface DirectUploadInput extends UploadFields {
  filename: string;
  size: number;
  part_size?: number;
}

/** The upload sessions: presigned single PUT (presign, commit), cancel, the 24 h sweep; the multipart steps are in multipartUploadService. */
export class DirectUploadService {
  constructor(
    private readonly deps: {
      sessions: UploadSessionRepository;
      files: FileShareService;
      uploads: FileUploadService;
      storageConfigs: StorageConfigService;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  now(): string {
    return this.deps.clock.now().toISOString();
  }

  async shareJson(input: UploadFields): Promise<string> {
    const share: ShareJson = {
      ...(input.slug ? { slug: input.slug } : {}),
      ...(input.remark ? { remark: input.remark } : {}),
      password_hash: input.password ? await hashPassword(input.password) : null,
      ...(input.expires_in ? { expires_in: input.expires_in } : {}),
      ...(input.max_views ? { max_views: input.max_views } : {}),
      ...(input.use_proxy !== undefined ? { use_proxy: input.use_proxy } : {}),
      ...(input.encryption ? { encryption: input.encryption } : {}),
    };
    return JSON.stringify(share);
  }

  /** The session, when `principal` may use it (its creator or an admin). */
  async requireSession(
    principal: Principal,
    fileId: string,
    kind?: 'presign' | 'multipart',
  ): Promise<UploadSessionRow> {
    const row = isWellFormedId(fileId) ? await this.deps.sessions.findById(fileId) : undefined;
    // Sessions of direct uploads into a mount (fs-…) are no file share's: the share routes never see them.
    if (!row || (kind && row.kind !== kind) || isFsSession(row)) {
      throw AppError.notFound('upload not found: it was completed, aborted or has expired');
    }
    if (principal.type !== 'admin' && row.created_by !== creatorId(principal)) {
      throw AppError.forbidden('you can only manage uploads you started');
    }
    return row;
  }

  async driverOf(row: UploadSessionRow): Promise<StorageDriver> {
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => {
      throw AppError.notFound('the storage of this upload no longer exists');
    });
    return this.deps.storageConfigs.driverOf(config);
  }

  // ---------- presigned single PUT ----------

  async presign(principal: Principal, input: DirectUploadInput, sourceUrl?: string): Promise<PresignResult> {
    const plan = await this.deps.uploads.planDirectUpload(input, input.filename, input.size);
    const { config, driver } = plan;
    if (!driver.presign || config.storage_type === 'local') {
      throw AppError.validation('this storage does not support direct uploads (local storage); use multipart upload');
    }
    const ttl = putUrlTtl(input.size, config.signature_expires_in);
    let url: string;
    try {
      // Length and type are signed: S3 refuses a PUT of other bytes than announced (see s3/driver.ts presign).
      url = await driver.presign(plan.storagePath, 'put', ttl, {
        contentType: plan.mimetype,
        contentLength: input.size,
      });
    } catch (error) {
      throw storageToAppError(error);
    }
    const id = newId();
    const now = this.now();
    await this.deps.sessions.insert({
      id,
      kind: 'presign',
      storage_config_id: config.id,
      storage_path: plan.storagePath,
      upload_id: null,
      filename: plan.filename,
      mimetype: plan.mimetype,
      size: input.size,
      part_size: 0,
      part_count: 0,
      share_json: await this.shareJson(input),
      source_url: sourceUrl ?? null,
      created_by: creatorId(principal),
      created_at: now,
      updated_at: now,
    });
    const encodedPath = plan.storagePath.split('/').map(encodeURIComponent).join('/');
    return {
      upload_url: url,
      file_id: id,
      storage_path: plan.storagePath,
      s3_url: config.custom_host ? `${config.custom_host}/${encodedPath}` : null,
      slug: input.slug ?? '',
      provider_type: config.storage_type,
      contentType: plan.mimetype,
      expires_in: ttl,
    };
  }

  /** Creates the share once the object is verified (exists, same size, same ETag when the client sent one). */
  async commit(principal: Principal, input: { file_id: string; size?: number; etag?: string }): Promise<FileView> {
    const row = await this.requireSession(principal, input.file_id, 'presign');
    if (input.size !== undefined && input.size !== row.size) {
      throw AppError.validation(`size ${input.size} differs from the ${row.size} bytes announced at presign`);
    }
    const driver = await this.driverOf(row);
    let entry;
    try {
      entry = await driver.stat(row.storage_path);
    } catch (error) {
      if (isStorageError(error, 'not_found')) {
        throw AppError.validation('the uploaded object was not found in the storage: upload it before committing');
      }
      throw storageToAppError(error);
    }
    if (entry.isDir) throw AppError.validation('the uploaded object was not found in the storage');
    if (entry.size !== row.size) {
      // The real size decides (never the client's word): other bytes than announced are dropped; the
      // session stays, so the upload may be PUT again while its URL lives.
      await driver.remove(row.storage_path).catch(() => undefined);
      throw AppError.validation(
        `the stored object has ${entry.size} bytes, but ${row.size} were announced: it was removed, upload it again`,
      );
    }
    if (input.etag && entry.etag && unquote(input.etag) !== unquote(entry.etag)) {
      throw AppError.validation('the ETag does not match the stored object');
    }
    return this.finish(principal, row, driver, entry);
  }

  /**
   * The share for the stored object, with its real size and ETag (what serving later checks the object
   * against). Over the max upload size or the capacity (checked atomically with the insert: parallel
   * commits cannot pass it together), or any other failure: the object and the session are dropped.
   */
  async finish(
    principal: Principal,
    row: UploadSessionRow,
    driver: StorageDriver,
    entry: { size: number; etag?: string },
  ): Promise<FileView> {
    const share = JSON.parse(row.share_json) as ShareJson;
    let view: FileView;
    try {
      view = await this.deps.files.createShareForStoredObject(principal, {
        id: row.id,
        configId: row.storage_config_id,
        storagePath: row.storage_path,
        filename: row.filename,
        mimetype: row.mimetype,
        size: entry.size,
        etag: entry.etag ?? null,
        slug: share.slug,
        remark: share.remark,
        passwordHash: share.password_hash ?? null,
        expiresIn: share.expires_in,
        maxViews: share.max_views,
        useProxy: share.use_proxy,
        encryption: share.encryption,
      });
    } catch (error) {
      // Committed by an earlier (retried) request: answer the share.
      if (await this.deps.files.exists(row.id)) return this.deps.files.get(principal, row.id);
      await driver.remove(row.storage_path).catch(() => undefined);
      await this.deps.sessions.delete(row.id);
      throw error;
    }
    await this.deps.sessions.delete(row.id);
    return view;
  }

  /** Drops an unfinished upload: the multipart upload or the presigned object, and the session. */
  async cancel(principal: Principal, fileId: string): Promise<void> {
    const row = await this.requireSession(principal, fileId);
    await this.discard(row);
  }

  private async discard(row: UploadSessionRow): Promise<void> {
    const driver = await this.driverOf(row).catch(() => undefined);
    if (driver && (isFsSession(row) || !(await this.deps.files.exists(row.id)))) {
      // A presigned object in a mount (fs-presign) is the user's file: only its session goes.
      if ((row.kind === 'multipart' || row.kind === 'fs-multipart') && row.upload_id && driver.multipart) {
        await driver.multipart.abort(row.storage_path, row.upload_id).catch((error: unknown) => {
          if (!isStorageError(error, 'not_found') && !isStorageError(error, 'unsupported')) {
            this.deps.logger.error(`abort of upload ${row.id} failed`, error);
          }
        });
      }
      if (row.kind === 'presign') await driver.remove(row.storage_path).catch(() => undefined);
    }
    await this.deps.sessions.delete(row.id);
  }

  // ---------- stale sessions ----------

  /**
   * Aborts sessions untouched for 24 h: multipart uploads (file shares' and the fs API's), presigned share
   * objects never committed; an fs presign session is only forgotten (the object, if any, is the user's file).
   */
  async sweep(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - UPLOAD_SESSION_TTL_MS).toISOString();
    let swept = 0;
    for (;;) {
      const stale = await this.deps.sessions.staleSince(before);
      if (stale.length === 0) break;
      for (const row of stale) {
        try {
          await this.discard(row);
        } catch (error) {
          this.deps.logger.error(`sweep of upload ${row.id} failed`, error);
          await this.deps.sessions.delete(row.id).catch(() => undefined);
        }
        swept++;
      }
      if (stale.length < 100) break;
    }
    return swept;
  }
}
