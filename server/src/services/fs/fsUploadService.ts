import { MULTIPART_PART_SIZE, type FsEntryView, type FsMultipartInit, type FsPresignResult } from '@clipnest/contract';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import type { UploadSessionRepository } from '../../repositories/uploadSessionRepository.js';
import { isStorageError, type Entry, type MultipartCapability } from '../../storage/types.js';
import type { Resolved } from '../../vfs/types.js';
import type { Vfs } from '../../vfs/vfs.js';
import { tooLargeError } from '../shares/fileShareRules.js';
import { mimetypeOf, toEntryView, type FsService } from './fsService.js';
import { putUrlTtl } from '../shares/uploads/directUploadService.js';
import { creatorId, type Principal } from '../../auth/principal.js';
import { storageToAppError } from '../../vfs/errors.js';

const MiB = 1024 * 1024;
/** Part URLs are signed for this long (refresh-urls signs again). */
const PART_URL_TTL_S = 15 * 60;
const DEFAULT_PUT_TTL_S = 3600;

const unquote = (etag: string) => etag.replace(/^W\//, '').replace(/^"|"$/g, '');

/** A StorageError as the AppError the caller sees, its message prefixed with what failed. */
function failed(prefix: string, error: unknown): unknown {
  const mapped = storageToAppError(error);
  return mapped instanceof AppError ? new AppError(mapped.kind, `${prefix}: ${mapped.message}`) : mapped;
}

/**
 * Direct uploads into the tree (spec §7 /fs/presign and /fs/multipart/*): the bytes go straight to the storage
 * (S3 presigned PUTs and part URLs) or through the server part by part (local), using the drivers' multipart
 * capability and the file shares' part-size rules (5 MiB parts, at most the backend's part count). The tree
 * checks MOUNT_UPLOAD and the base path on every call; the upload id is the backend's own. Every upload is
 * recorded in the file shares' upload sessions (kind `fs-multipart` / `fs-presign`, touched by each part):
 * the stale-upload sweep (DirectUploadService.sweep) aborts a multipart upload left untouched for 24 h, on S3
 * and on local storage alike, and the orphan sweep leaves uploads a session owns alone.
 */
export class FsUploadService {
  constructor(
    private readonly deps: {
      vfs: Vfs;
      fs: Pick<FsService, 'uploadTarget'>;
      /** The max upload size setting, in bytes. */
      maxUploadSize: () => Promise<number>;
      /** The upload sessions the stale-upload sweep works from (shared with the file shares' uploads). */
      sessions: UploadSessionRepository;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  /** Records a direct upload into a mount, so an abandoned one is swept. */
  private async recordSession(
    principal: Principal,
    resolved: Resolved,
    kind: 'fs-presign' | 'fs-multipart',
    upload: { uploadId?: string; size: number; mimetype: string; partSize?: number; partCount?: number },
  ): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await this.deps.sessions.insert({
      id: newId(),
      kind,
      storage_config_id: resolved.mount.storage_config_id,
      storage_path: resolved.driverPath,
      upload_id: upload.uploadId ?? null,
      filename: resolved.path.slice(resolved.path.lastIndexOf('/') + 1),
      mimetype: upload.mimetype,
      size: upload.size,
      part_size: upload.partSize ?? 0,
      part_count: upload.partCount ?? 0,
      share_json: JSON.stringify({ path: resolved.path, mount_id: resolved.mount.id }),
      source_url: null,
      created_by: creatorId(principal),
      created_at: now,
      updated_at: now,
    });
  }

  /** The session of a multipart upload is alive while parts arrive (the sweep counts from the last touch). */
  private async touchSession(resolved: Resolved, uploadId: string): Promise<void> {
    const row = await this.deps.sessions.findByUploadId(resolved.mount.storage_config_id, uploadId);
    if (row) await this.deps.sessions.touch(row.id, this.deps.clock.now().toISOString());
  }

  private async dropSession(resolved: Resolved, uploadId: string): Promise<void> {
    const row = await this.deps.sessions.findByUploadId(resolved.mount.storage_config_id, uploadId);
    if (row) await this.deps.sessions.delete(row.id);
  }

  /** The resolved target of a direct upload of `size` bytes, within the write limit (Vfs.checkWrite: 413). */
  private async target(principal: Principal, path: string, fileName: string | undefined, size: number) {
    const max = await this.deps.maxUploadSize();
    if (size > max) throw tooLargeError(max);
    const target = await this.deps.fs.uploadTarget(principal, path, fileName ?? '');
    const resolved = await this.deps.vfs.resolveWrite(principal, target);
    await this.deps.vfs.checkWrite(resolved, size);
    return resolved;
  }

  async presign(
    principal: Principal,
    input: { path: string; fileName?: string; contentType?: string; fileSize: number },
  ): Promise<FsPresignResult> {
    const resolved = await this.target(principal, input.path, input.fileName, input.fileSize);
    if (!this.deps.vfs.canPresign(resolved)) {
      throw AppError.validation(
        'failed to get presigned URL: this storage takes no direct uploads (local storage); use /api/fs/upload or multipart',
      );
    }
    const contentType = mimetypeOf(resolved.path, input.contentType);
    // As the share uploads do: a short life (minutes, never the mount's days-long link expiry), and the length
    // and type signed, so S3 refuses other bytes than announced; the commit is accepted once.
    const ttl = putUrlTtl(input.fileSize, resolved.mount.sign_expires ?? DEFAULT_PUT_TTL_S);
    let url: string | undefined;
    try {
      url = await this.deps.vfs.presign(resolved, 'put', ttl, { contentType, contentLength: input.fileSize });
    } catch (error) {
      throw failed('failed to get presigned URL', error);
    }
    if (url === undefined)
      throw AppError.validation('failed to get presigned URL: this storage takes no direct uploads');
    await this.recordSession(principal, resolved, 'fs-presign', { size: input.fileSize, mimetype: contentType });
    return { presignedUrl: url, targetPath: resolved.path, contentType, expires_in: ttl };
  }

  /**
   * After the client's PUT: the upload must have been presigned (by this caller, or any for the admin) and not
   * yet committed; the stored object must have the presigned size (other bytes are removed: the session stays,
   * so the PUT may be retried while its URL lives), then the session is consumed (a second commit: 400).
   */
  async commit(
    principal: Principal,
    input: { targetPath?: string; path?: string; fileSize?: number; etag?: string },
  ): Promise<FsEntryView> {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.targetPath ?? input.path ?? '', 'targetPath');
    const sessions = await this.deps.sessions.findByPath(
      resolved.mount.storage_config_id,
      resolved.driverPath,
      'fs-presign',
    );
    const session = sessions.find((row) => principal.type === 'admin' || row.created_by === creatorId(principal));
    if (!session) {
      throw AppError.validation(
        `no presigned upload of ${resolved.path} awaits a commit: presign it first (an upload is committed once)`,
        [{ path: 'targetPath', message: 'no presigned upload awaits a commit' }],
      );
    }
    if (input.fileSize !== undefined && input.fileSize !== session.size) {
      throw AppError.validation(
        `fileSize ${input.fileSize} differs from the ${session.size} bytes announced at presign`,
      );
    }
    const entry = await this.deps.vfs.stored(resolved);
    if (!entry) {
      throw AppError.validation('the uploaded object was not found in the storage: upload it before committing');
    }
    if (entry.isDir) throw AppError.validation(`${resolved.path} is a folder`);
    if (entry.size !== session.size) {
      await this.deps.vfs.discard(resolved);
      throw AppError.validation(
        `the stored object has ${entry.size} bytes, but ${session.size} were announced: it was removed, upload it again`,
      );
    }
    if (input.etag && entry.etag && unquote(input.etag) !== unquote(entry.etag)) {
      throw AppError.validation('the ETag does not match the stored object');
    }
    // Consumed once: of two commits at the same time, one deletes the session and the other is refused.
    if (!(await this.deps.sessions.delete(session.id))) {
      throw AppError.validation(`the presigned upload of ${resolved.path} was already committed`);
    }
    return toEntryView(this.deps.vfs.written(resolved, entry));
  }

  private multipartOf(resolved: Resolved): MultipartCapability {
    const mp = this.deps.vfs.multipart(resolved);
    if (!mp) throw AppError.validation('multipart init failed: this storage does not support multipart uploads');
    return mp;
  }

  private async signAll(resolved: Resolved, uploadId: string, partNumbers: number[]) {
    const mp = this.multipartOf(resolved);
    if (!mp.presignedParts || !mp.signPart) return [];
    try {
      return await Promise.all(
        partNumbers.map(async (partNumber) => ({
          partNumber,
          url: await mp.signPart!(resolved.driverPath, uploadId, partNumber, PART_URL_TTL_S),
        })),
      );
    } catch (error) {
      throw failed('failed to sign part URLs', error);
    }
  }

  async initMultipart(
    principal: Principal,
    input: { path: string; fileName?: string; fileSize: number; partSize?: number; contentType?: string },
  ): Promise<FsMultipartInit> {
    const resolved = await this.target(principal, input.path, input.fileName, input.fileSize);
    const mp = this.multipartOf(resolved);
    let partSize = Math.max(input.partSize ?? MULTIPART_PART_SIZE, mp.minPartSize);
    if (Math.ceil(input.fileSize / partSize) > mp.maxParts) {
      partSize = Math.ceil(input.fileSize / mp.maxParts / MiB) * MiB;
    }
    const partCount = Math.max(1, Math.ceil(input.fileSize / partSize));
    let uploadId: string;
    const contentType = mimetypeOf(resolved.path, input.contentType);
    try {
      ({ uploadId } = await mp.start(resolved.driverPath, { contentType, overwrite: true }));
    } catch (error) {
      throw failed('multipart init failed', error);
    }
    try {
      await this.recordSession(principal, resolved, 'fs-multipart', {
        uploadId,
        size: input.fileSize,
        mimetype: contentType,
        partSize,
        partCount,
      });
    } catch (error) {
      // No session, no sweep: the upload is not left behind unrecorded.
      await mp.abort(resolved.driverPath, uploadId).catch((abortError: unknown) => {
        this.deps.logger.error(`abort of unrecorded upload ${uploadId} failed`, abortError);
      });
      throw error;
    }
    const numbers = Array.from({ length: partCount }, (_, i) => i + 1);
    return {
      uploadId,
      path: resolved.path,
      partSize,
      partCount,
      presigned: mp.presignedParts && typeof mp.signPart === 'function',
      presignedUrls: await this.signAll(resolved, uploadId, numbers),
    };
  }

  async refreshUrls(principal: Principal, input: { path: string; uploadId: string; partNumbers: number[] }) {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.path);
    const presignedUrls = await this.signAll(resolved, input.uploadId, input.partNumbers);
    await this.touchSession(resolved, input.uploadId);
    return { presignedUrls };
  }

  /** A part through the server (local storage; any storage works). */
  async uploadPart(
    principal: Principal,
    input: { path: string; uploadId: string; partNumber: number },
    body: ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<{ PartNumber: number; ETag: string; size: number }> {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.path);
    const mp = this.multipartOf(resolved);
    try {
      const part = await mp.uploadPart(resolved.driverPath, input.uploadId, input.partNumber, body, { signal });
      await this.touchSession(resolved, input.uploadId);
      return { PartNumber: part.partNumber, ETag: part.etag, size: part.size };
    } catch (error) {
      throw failed(`part ${input.partNumber} failed`, error);
    }
  }

  async completeMultipart(
    principal: Principal,
    input: {
      path: string;
      uploadId: string;
      parts: Array<{ PartNumber?: number; partNumber?: number; ETag?: string; etag?: string }>;
      fileSize?: number;
    },
  ): Promise<FsEntryView> {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.path);
    const mp = this.multipartOf(resolved);
    const parts = input.parts.map((p, i) => {
      const partNumber = p.PartNumber ?? p.partNumber;
      const etag = p.ETag ?? p.etag ?? '';
      if (partNumber === undefined) {
        throw AppError.validation(`parts.${i}: PartNumber is required`, [{ path: `parts.${i}`, message: 'required' }]);
      }
      if (unquote(etag) === '') {
        throw AppError.validation(`no ETag obtained for part ${partNumber}`, [
          { path: `parts.${i}`, message: 'no ETag obtained' },
        ]);
      }
      return { partNumber, etag };
    });
    parts.sort((a, b) => a.partNumber - b.partNumber);
    let entry: Entry;
    try {
      entry = await mp.complete(resolved.driverPath, input.uploadId, parts);
    } catch (error) {
      throw failed('multipart complete failed', error);
    }
    // The size announced at init passed the write limit; more bytes than that are not kept.
    const session = await this.deps.sessions.findByUploadId(resolved.mount.storage_config_id, input.uploadId);
    if (session && entry.size > session.size) {
      await this.deps.vfs.discard(resolved);
      await this.dropSession(resolved, input.uploadId);
      const limit = await this.deps.vfs.checkWrite(resolved);
      throw (
        limit?.tooLarge(entry.size, false) ??
        AppError.validation(`the upload has ${entry.size} bytes, but ${session.size} were announced at init`)
      );
    }
    await this.dropSession(resolved, input.uploadId);
    return toEntryView(this.deps.vfs.written(resolved, entry));
  }

  async abortMultipart(principal: Principal, input: { path: string; uploadId: string }): Promise<void> {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.path);
    try {
      await this.multipartOf(resolved).abort(resolved.driverPath, input.uploadId);
    } catch (error) {
      // Already gone from the storage: the session goes too.
      if (isStorageError(error, 'not_found')) await this.dropSession(resolved, input.uploadId);
      throw failed('multipart abort failed', error);
    }
    await this.dropSession(resolved, input.uploadId);
  }

  async listParts(principal: Principal, input: { path: string; uploadId: string }) {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.path);
    try {
      const parts = await this.multipartOf(resolved).listParts(resolved.driverPath, input.uploadId);
      await this.touchSession(resolved, input.uploadId);
      return { parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag, size: p.size })) };
    } catch (error) {
      throw failed('listing the parts failed', error);
    }
  }

  /** Unfinished uploads at or below `path` (a file or a folder). */
  async listUploads(principal: Principal, input: { path: string }) {
    const resolved = await this.deps.vfs.resolveWrite(principal, input.path);
    const mp = this.multipartOf(resolved);
    if (!mp.listUploads) throw new AppError('NOT_IMPLEMENTED', 'this storage cannot list unfinished uploads');
    try {
      const uploads = await mp.listUploads();
      const base = resolved.driverPath;
      const mine = uploads.filter((u) => base === '' || u.path === base || u.path.startsWith(`${base}/`));
      return {
        uploads: mine.map((u) => ({
          uploadId: u.uploadId,
          path: `${resolved.mount.path}/${u.path}`,
          ...(u.initiated ? { initiated: u.initiated.toISOString() } : {}),
        })),
      };
    } catch (error) {
      throw failed('listing the uploads failed', error);
    }
  }
}
