// Upload requests (reverse shares): a public link others upload into. The files go into a folder of the tree
// (written as the request's creator is now, so the creator's permissions and base path still hold) or become
// file shares of the creator. Limits are reserved in one conditional UPDATE before anything is stored, so
// parallel uploads never exceed them; a file over a limit is refused whole and nothing of its request stays.
import { createReadStream } from 'node:fs';
import {
  hasPermission,
  Permission,
  type CreateUploadRequest,
  type ListPage,
  type PublicUploadRequestInfo,
  type ReceivedFileView,
  type ShareManageListQuery,
  type UploadRequestReceipt,
  type UploadRequestState,
  type UploadRequestView,
} from '@clipnest/contract';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { isWellFormedId, newId } from '../../lib/ids.js';
import type { UploadRequestRepository, UploadRequestRow } from '../../repositories/uploadRequestRepository.js';
import { hashPassword, verifyPassword } from '../../security/secrets.js';
import type { Vfs } from '../../vfs/vfs.js';
import { cleanFilename, formatBytes, isLookupFileSlug, randomSlug } from './fileShareRules.js';
import type { FileShareService } from './fileShareService.js';
import type { FileUploadService } from './uploads/fileUploadService.js';
import { suffixedName } from './folderShareService.js';
import { creatorId, type Principal } from '../../auth/principal.js';
import type { SecretAttemptLimiter } from '../auth/secretAttemptLimiter.js';

/** A file of an upload, spooled (its size exact) before anything is reserved or stored. */
export interface ArrivedFile {
  filename: string;
  mimeType: string;
  size: number;
  /** The spooled copy. */
  path: string;
}

/** Uploads one address may send to one request per minute (beyond: 429). */
export const UPLOADS_PER_MINUTE = 30;

export class UploadRequestService {
  /** Per client and request: the times of its uploads within the last minute (this instance). */
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly deps: {
      requests: UploadRequestRepository;
      vfs: Vfs;
      fileUploads: Pick<FileUploadService, 'prepareUpload' | 'upload' | 'maxUploadSize'>;
      files: Pick<FileShareService, 'discard'>;
      clock: Clock;
      limiter: SecretAttemptLimiter;
      principalOf: (createdBy: string) => Promise<Principal | undefined>;
      publicUrl?: string;
    },
  ) {}

  // ---------- owner side ----------

  private stateOf(row: UploadRequestRow): UploadRequestState {
    if (row.revoked_at !== null) return 'revoked';
    if (row.expires_at !== null && row.expires_at <= isoNow(this.deps.clock)) return 'expired';
    if (row.max_files > 0 && row.files_received >= row.max_files) return 'full';
    if (row.max_bytes > 0 && row.bytes_received >= row.max_bytes) return 'full';
    return 'open';
  }

  toView(row: UploadRequestRow): UploadRequestView {
    return {
      id: row.id,
      slug: row.slug,
      url: `${this.deps.publicUrl ?? ''}/r/${encodeURIComponent(row.slug)}`,
      target_path: row.target_path,
      note: row.note,
      has_password: row.password_hash !== null,
      max_files: row.max_files,
      max_bytes: row.max_bytes,
      max_file_bytes: row.max_file_bytes,
      files_received: row.files_received,
      bytes_received: row.bytes_received,
      expires_at: row.expires_at,
      revoked_at: row.revoked_at,
      last_upload_at: row.last_upload_at,
      state: this.stateOf(row),
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The admin, or a key with FILE_SHARE (and MOUNT_UPLOAD inside its base path for a folder of the tree). */
  private async checkTarget(principal: Principal, targetPath: string): Promise<string> {
    if (principal.type === 'apikey' && !hasPermission(principal.permissions, Permission.FILE_SHARE)) {
      throw AppError.forbidden('this API key lacks the file share permission');
    }
    if (targetPath === '') return '';
    const { vfs } = this.deps;
    const path = vfs.normalise(targetPath, 'target_path');
    vfs.authorize(principal, path, Permission.MOUNT_UPLOAD);
    const entry = await vfs.stat(principal, path);
    if (!entry.isDir || (entry.isMount && entry.mountId === undefined)) {
      throw AppError.validation(`${path} is not a folder files can be written into`, [
        { path: 'target_path', message: 'not a folder of a mount' },
      ]);
    }
    return path;
  }

  /** POST /api/upload-requests. */
  async create(principal: Principal, input: CreateUploadRequest): Promise<UploadRequestView> {
    const targetPath = await this.checkTarget(principal, input.target_path?.trim() ?? '');
    const now = this.deps.clock.now();
    const row: UploadRequestRow = {
      id: newId(),
      slug: '',
      target_path: targetPath,
      note: input.note ?? '',
      password_hash: input.password ? await hashPassword(input.password) : null,
      max_files: input.max_files ?? 0,
      max_bytes: input.max_bytes ?? 0,
      max_file_bytes: input.max_file_bytes ?? 0,
      files_received: 0,
      bytes_received: 0,
      expires_at: input.expires_in ? new Date(now.getTime() + input.expires_in * 3600_000).toISOString() : null,
      revoked_at: null,
      last_upload_at: null,
      created_by: creatorId(principal),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    for (let attempt = 0; ; attempt++) {
      row.slug = randomSlug(attempt < 3 ? 8 : 12);
      try {
        await this.deps.requests.insert(row);
        break;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
    return this.toView(row);
  }

  /** GET /api/upload-requests: the caller's (the admin: everyone's). */
  async listOwned(principal: Principal, query: ShareManageListQuery): Promise<ListPage<UploadRequestView>> {
    const { rows, total } = await this.deps.requests.list({
      ...(principal.type === 'admin' ? {} : { createdBy: creatorId(principal) }),
      limit: query.limit,
      offset: query.offset,
    });
    return { items: rows.map((r) => this.toView(r)), total, limit: query.limit, offset: query.offset };
  }

  /** DELETE /api/upload-requests/{id}: revoked; later uploads answer 410. What arrived stays. */
  async revoke(principal: Principal, id: string): Promise<void> {
    const row = isWellFormedId(id) ? await this.deps.requests.findById(id) : undefined;
    if (!row) throw AppError.notFound(`upload request ${JSON.stringify(id)} not found`);
    if (principal.type !== 'admin' && row.created_by !== creatorId(principal)) {
      throw AppError.forbidden('you can only manage upload requests you created');
    }
    await this.deps.requests.revoke(row.id, isoNow(this.deps.clock));
  }

  /** The newest files received (the dashboard). */
  async recentFiles(principal: Principal, limit = 10): Promise<ReceivedFileView[]> {
    const rows = await this.deps.requests.recentFiles(
      principal.type === 'admin' ? undefined : creatorId(principal),
      limit,
    );
    return rows.map((r) => ({
      id: r.id,
      request_id: r.request_id,
      request_slug: r.request_slug,
      name: r.name,
      size: r.size,
      path: r.path,
      file_id: r.file_id,
      created_at: r.created_at,
    }));
  }

  // ---------- public side ----------

  private async requireBySlug(slug: string): Promise<UploadRequestRow> {
    const row = isLookupFileSlug(slug) ? await this.deps.requests.findBySlug(slug) : undefined;
    if (!row) throw AppError.notFound('upload request not found');
    return row;
  }

  private assertOpen(row: UploadRequestRow): void {
    if (row.revoked_at !== null) {
      throw new AppError('GONE', 'this upload link was revoked', { data: { reason: 'revoked' } });
    }
    if (row.expires_at !== null && row.expires_at <= isoNow(this.deps.clock)) {
      throw new AppError('EXPIRED', 'this upload link has expired', { data: { reason: 'expired' } });
    }
  }

  private async assertPassword(row: UploadRequestRow, password: string | undefined, client: string): Promise<void> {
    const hash = row.password_hash;
    if (hash === null) return;
    if (password === undefined || password === '') {
      throw new AppError('PASSWORD_REQUIRED', 'this upload link needs a password');
    }
    const right = await this.deps.limiter.attempt({ kind: 'file', client, target: row.id }, () =>
      verifyPassword(password, hash),
    );
    if (!right) throw new AppError('PASSWORD_WRONG', 'wrong password');
  }

  private remaining(row: UploadRequestRow) {
    return {
      files: row.max_files > 0 ? Math.max(0, row.max_files - row.files_received) : null,
      bytes: row.max_bytes > 0 ? Math.max(0, row.max_bytes - row.bytes_received) : null,
    };
  }

  /** GET /api/upload-requests/{slug}: limits and what remains; the note once the password is given. */
  async info(
    slug: string,
    access: { password?: string | undefined; client: string },
  ): Promise<PublicUploadRequestInfo> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    const left = this.remaining(row);
    const base: PublicUploadRequestInfo = {
      slug: row.slug,
      requires_password: false,
      max_files: row.max_files,
      max_bytes: row.max_bytes,
      max_file_bytes: row.max_file_bytes,
      files_remaining: left.files,
      bytes_remaining: left.bytes,
      expires_at: row.expires_at,
    };
    if (row.password_hash !== null && !access.password) return { ...base, requires_password: true };
    await this.assertPassword(row, access.password, access.client);
    return { ...base, note: row.note };
  }

  /** Counts one upload of this client to this request; 429 beyond UPLOADS_PER_MINUTE. */
  private countUpload(row: UploadRequestRow, client: string): void {
    const now = this.deps.clock.now().getTime();
    const key = `${client}\n${row.id}`;
    const times = (this.recent.get(key) ?? []).filter((t) => t > now - 60_000);
    if (times.length >= UPLOADS_PER_MINUTE) {
      const retryAfter = Math.max(1, Math.ceil(((times[0] ?? now) + 60_000 - now) / 1000));
      throw new AppError('RATE_LIMITED', `too many uploads from this address, try again in ${retryAfter} seconds`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    times.push(now);
    this.recent.set(key, times);
    if (this.recent.size > 10_000) {
      for (const [k, list] of this.recent) if (!list.some((t) => t > now - 60_000)) this.recent.delete(k);
    }
  }

  /**
   * Before the body is read: the request is open, the password right, the address under its rate, and the
   * largest one file may be (for the spooling meter; above it: 413 quota_exceeded).
   */
  async admit(
    slug: string,
    access: { password?: string | undefined; client: string },
    requestLength: number | undefined,
  ): Promise<{ row: UploadRequestRow; maxFileBytes: number }> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    await this.assertPassword(row, access.password, access.client);
    await this.creatorOf(row);
    this.countUpload(row, access.client);
    const left = this.remaining(row);
    if (left.files === 0) throw this.quota(`this upload link accepts no more files (${row.max_files} at most)`);
    if (
      left.bytes !== null &&
      requestLength !== undefined &&
      requestLength > left.bytes + 64 * 1024 * (left.files ?? 50)
    ) {
      throw this.quota(`the upload is larger than what this link still accepts (${formatBytes(left.bytes)})`);
    }
    const bounds = [await this.deps.fileUploads.maxUploadSize()];
    if (row.max_file_bytes > 0) bounds.push(row.max_file_bytes);
    if (left.bytes !== null) bounds.push(left.bytes);
    return { row, maxFileBytes: Math.min(...bounds) };
  }

  quota(message: string): AppError {
    return new AppError('QUOTA_EXCEEDED', message);
  }

  /** The creator as now; a creator that can no longer write there → 410 gone (reason creator). */
  private async creatorOf(row: UploadRequestRow): Promise<Principal> {
    const creator = await this.deps.principalOf(row.created_by);
    const gone = () =>
      new AppError('GONE', 'this upload link no longer works: its creator can no longer receive files', {
        data: { reason: 'creator' },
      });
    if (!creator) throw gone();
    if (creator.type === 'apikey' && !hasPermission(creator.permissions, Permission.FILE_SHARE)) throw gone();
    if (row.target_path !== '') {
      try {
        this.deps.vfs.authorize(creator, row.target_path, Permission.MOUNT_UPLOAD);
      } catch {
        throw gone();
      }
    }
    return creator;
  }

  /**
   * POST /api/upload-requests/{slug}/upload, once every file is spooled: reserves them all (413 quota_exceeded
   * and nothing stored when they do not fit), then stores each under a free name; on a failure what this
   * upload stored goes again and the reservation is given back.
   */
  async receive(row: UploadRequestRow, files: ArrivedFile[]): Promise<UploadRequestReceipt> {
    const { requests } = this.deps;
    if (files.length === 0)
      throw AppError.validation('select a file to upload', [{ path: 'file', message: 'required' }]);
    const names = files.map((f) => this.cleanName(f.filename));
    for (const [i, f] of files.entries()) {
      if (f.size === 0)
        throw AppError.validation(`${names[i]} is empty`, [{ path: 'file', message: 'the file is empty' }]);
      if (row.max_file_bytes > 0 && f.size > row.max_file_bytes) {
        throw this.quota(`${names[i]} is larger than this link accepts per file (${formatBytes(row.max_file_bytes)})`);
      }
    }
    const total = files.reduce((sum, f) => sum + f.size, 0);
    const now = isoNow(this.deps.clock);
    if (!(await requests.reserve(row.id, files.length, total, now))) {
      const fresh = await requests.findById(row.id);
      if (fresh) this.assertOpen(fresh);
      const left = fresh ? this.remaining(fresh) : { files: 0, bytes: 0 };
      throw this.quota(
        `these files do not fit what this link still accepts (${left.files ?? 'any number of'} files, ${
          left.bytes === null ? 'any size' : formatBytes(left.bytes)
        })`,
      );
    }
    const creator = await this.creatorOf(row);
    const stored: { name: string; size: number; undo: () => Promise<void>; path: string; fileId: string | null }[] = [];
    try {
      for (const [i, f] of files.entries()) {
        stored.push(await this.store(row, creator, names[i]!, f));
      }
      for (const s of stored) {
        await requests.recordFile({
          id: newId(),
          request_id: row.id,
          name: s.name,
          size: s.size,
          path: s.path,
          file_id: s.fileId,
          created_at: now,
        });
      }
    } catch (error) {
      for (const s of stored) await s.undo().catch(() => undefined);
      await requests.release(row.id, files.length, total);
      throw error;
    }
    return { files: stored.map((s) => ({ name: s.name, size: s.size })) };
  }

  /** A name that is a plain file name (no folder part, no control characters); `..` and the like → 400. */
  private cleanName(raw: string): string {
    // eslint-disable-next-line no-control-regex
    const name = cleanFilename(raw.replace(/[\u0000-\u001f\u007f]/g, '')).replace(/[<>:"|?*]/g, '_');
    if (name.startsWith('.')) return `_${name.slice(1)}`;
    return name;
  }

  private async store(row: UploadRequestRow, creator: Principal, name: string, file: ArrivedFile) {
    if (row.target_path === '') {
      const { fileUploads } = this.deps;
      const prepared = await fileUploads.prepareUpload({});
      const view = await fileUploads.upload(
        creator,
        {},
        createReadStream(file.path),
        { filename: name, partMimetype: file.mimeType, size: file.size },
        prepared,
      );
      return {
        name: view.filename,
        size: view.size,
        path: '',
        fileId: view.id,
        undo: () =>
          this.deps.files.discard({
            id: view.id,
            storage_config_id: view.s3_config_id,
            storage_path: view.storage_path,
          }),
      };
    }
    const { vfs } = this.deps;
    for (let n = 0; n < 1000; n++) {
      const candidate = n === 0 ? name : suffixedName(name, n);
      const path = vfs.normalise(`${row.target_path}/${candidate}`);
      try {
        const entry = await vfs.write(creator, path, createReadStream(file.path), {
          overwrite: false,
          size: file.size,
          contentType: file.mimeType || undefined,
          before: (existing) => {
            if (existing) throw new AppError('CONFLICT', 'exists');
          },
        });
        return {
          name: candidate,
          size: entry.size,
          path: entry.path,
          fileId: null,
          undo: () => vfs.remove(creator, [entry.path]).then(() => undefined),
        };
      } catch (error) {
        if (error instanceof AppError && error.kind === 'CONFLICT') continue;
        throw error;
      }
    }
    throw AppError.conflict(`no free name for ${name} in the folder`);
  }
}
