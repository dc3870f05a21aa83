// Folder shares: one public link to a folder of the tree. A share reads the tree as its creator (as that
// admin or key is now), confined to the shared folder: every path a visitor sends is normalised by the vfs
// and must stay inside the folder, and a symbolic link leading out of it is neither listed nor read.
import { createHmac } from 'node:crypto';
import {
  hasPermission,
  isPathWithin,
  Permission,
  type CreateShare,
  type ListPage,
  type PublicShareInfo,
  type PublicShareListing,
  type ShareEntryView,
  type ShareManageListQuery,
  type ShareView,
} from '@clipnest/contract';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { isWellFormedId, newId } from '../../lib/ids.js';
import type { BundleFileRepository } from '../../repositories/bundleFileRepository.js';
import type { FolderShareRepository, FolderShareRow } from '../../repositories/folderShareRepository.js';
import { hashPassword, safeEqual, sha256Hex, verifyPassword } from '../../security/secrets.js';
import type { VfsEntry } from '../../vfs/types.js';
import type { Vfs } from '../../vfs/vfs.js';
import type { BundleContent } from './bundleContent.js';
import type { ContentMode, ContentRequest, ContentResult } from './serving/fileServingService.js';
import { isLookupFileSlug, randomSlug } from './fileShareRules.js';
import type { FsService } from '../fs/fsService.js';
import { mimetypeOf } from '../fs/fsService.js';
import { creatorId, type ApiKeyPrincipal, type Principal } from '../../auth/principal.js';
import type { SecretAttemptLimiter } from '../auth/secretAttemptLimiter.js';
import type { PreparedZip, ZipService } from '../fs/zip/zipService.js';

/** Lifetime of the access token handed out with the share's details. */
export const SHARE_TOKEN_TTL_S = 3 * 3600;

/** The options of a bundle (POST /api/upload with bundle=true). */
export interface NewBundle {
  files: { id: string; filename: string }[];
  password?: string | undefined;
  expires_in?: number | undefined;
  max_downloads?: number | undefined;
  slug?: string | undefined;
  remark?: string | undefined;
}

/** `name (1).ext` for the second file called `name.ext` (names are unique within a bundle or folder). */
export function suffixedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const cut = dot > 0 ? dot : name.length;
  return `${name.slice(0, cut)} (${n})${name.slice(cut)}`;
}

/** How a visitor proves access: the password (header or query) or a token from the info answer. */
export interface ShareAccess {
  password?: string | undefined;
  token?: string | undefined;
  client: string;
}

export class FolderShareService {
  private readonly tokenKey: Buffer;

  constructor(
    private readonly deps: {
      shares: FolderShareRepository;
      vfs: Vfs;
      fs: Pick<FsService, 'content'>;
      zips: Pick<ZipService, 'prepare'>;
      clock: Clock;
      limiter: SecretAttemptLimiter;
      /** The admin or key behind a `created_by` value as it is now (undefined: deleted, disabled or expired). */
      principalOf: (createdBy: string) => Promise<Principal | undefined>;
      tokenSecret: string;
      publicUrl?: string;
      /** Bundles: their files (0023) and how they are read. */
      bundleFiles?: BundleFileRepository;
      bundles?: BundleContent;
    },
  ) {
    this.tokenKey = createHmac('sha256', 'clipnest-folder-share').update(deps.tokenSecret).digest();
  }

  // ---------- owner side ----------

  toView(row: FolderShareRow): ShareView {
    return {
      id: row.id,
      slug: row.slug,
      url: `${this.deps.publicUrl ?? ''}/s/${encodeURIComponent(row.slug)}`,
      type: row.type === 'bundle' ? 'bundle' : 'folder',
      name: row.name,
      path: row.path,
      remark: row.remark,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_downloads: row.max_downloads,
      downloads: row.downloads,
      views: row.views,
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** POST /api/shares: the admin, or a key with FILE_SHARE + MOUNT_VIEW inside its base path. */
  async create(principal: Principal, input: CreateShare): Promise<ShareView> {
    const { vfs } = this.deps;
    if (principal.type === 'apikey' && !hasPermission(principal.permissions, Permission.FILE_SHARE)) {
      throw AppError.forbidden('this API key lacks the file share permission');
    }
    const path = vfs.normalise(input.path);
    vfs.authorize(principal, path, Permission.MOUNT_VIEW);
    const entry = await vfs.stat(principal, path);
    if (!entry.isDir)
      throw AppError.validation(`${path} is a file: a folder share needs a folder`, [
        { path: 'path', message: 'not a folder' },
      ]);
    if (entry.isMount && entry.mountId === undefined) {
      throw AppError.validation(`${path} is a virtual folder above mount points: share a mount or a folder in one`, [
        { path: 'path', message: 'virtual folder' },
      ]);
    }
    // The folder itself must be reached directly: through a link, everything in it would lead outside it.
    try {
      await vfs.stat(this.scoped('new', path), path);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'FORBIDDEN') {
        throw AppError.validation(`${path} is a symbolic link: share the folder it leads to`, [
          { path: 'path', message: 'symbolic link' },
        ]);
      }
      throw error;
    }
    const now = this.deps.clock.now();
    const row: FolderShareRow = {
      id: newId(),
      slug: input.slug ?? '',
      type: 'folder',
      name: entry.name || path.slice(path.lastIndexOf('/') + 1),
      path,
      remark: input.remark ?? '',
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: input.expires_in ? new Date(now.getTime() + input.expires_in * 3600_000).toISOString() : null,
      max_downloads: input.max_downloads ?? 0,
      downloads: 0,
      views: 0,
      created_by: creatorId(principal),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await this.insertWithSlug(row, input.slug !== undefined);
    return this.toView(row);
  }

  /** POST /api/upload with bundle=true: the files (already stored as the caller's file shares) under one link. */
  async createBundle(principal: Principal, input: NewBundle): Promise<ShareView> {
    const bundleFiles = this.deps.bundleFiles;
    if (!bundleFiles) throw new Error('bundles are not wired');
    const now = this.deps.clock.now();
    const first = input.files[0]?.filename ?? 'bundle';
    const row: FolderShareRow = {
      id: newId(),
      slug: input.slug ?? '',
      type: 'bundle',
      name: input.files.length === 1 ? first : `${first} (+${input.files.length - 1})`,
      path: '',
      remark: input.remark ?? '',
      password_hash: input.password ? await hashPassword(input.password) : null,
      expires_at: input.expires_in ? new Date(now.getTime() + input.expires_in * 3600_000).toISOString() : null,
      max_downloads: input.max_downloads ?? 0,
      downloads: 0,
      views: 0,
      created_by: creatorId(principal),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const taken = new Set<string>();
    const items = input.files.map((file, position) => {
      let name = file.filename || 'file';
      for (let n = 1; taken.has(name.toLowerCase()); n++) name = suffixedName(file.filename || 'file', n);
      taken.add(name.toLowerCase());
      return { id: newId(), share_id: row.id, file_id: file.id, name, position };
    });
    await this.insertWithSlug(row, input.slug !== undefined);
    try {
      await bundleFiles.insertMany(items);
    } catch (error) {
      await this.deps.shares.delete(row.id);
      throw error;
    }
    return this.toView(row);
  }

  private async insertWithSlug(row: FolderShareRow, custom: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!custom) row.slug = randomSlug(attempt < 3 ? 6 : 10);
      try {
        await this.deps.shares.insert(row);
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (custom || attempt >= 5) throw AppError.slugTaken();
      }
    }
  }

  /** GET /api/shares: the caller's shares (the admin: everyone's). */
  async listOwned(principal: Principal, query: ShareManageListQuery): Promise<ListPage<ShareView>> {
    const { rows, total } = await this.deps.shares.list({
      ...(principal.type === 'admin' ? {} : { createdBy: creatorId(principal) }),
      limit: query.limit,
      offset: query.offset,
    });
    return { items: rows.map((r) => this.toView(r)), total, limit: query.limit, offset: query.offset };
  }

  private async requireOwned(principal: Principal, id: string): Promise<FolderShareRow> {
    const row = isWellFormedId(id) ? await this.deps.shares.findById(id) : undefined;
    if (!row) throw AppError.notFound(`share ${JSON.stringify(id)} not found`);
    if (principal.type !== 'admin' && row.created_by !== creatorId(principal)) {
      throw AppError.forbidden('you can only manage shares you created');
    }
    return row;
  }

  async get(principal: Principal, id: string): Promise<ShareView> {
    return this.toView(await this.requireOwned(principal, id));
  }

  /** DELETE /api/shares/{id}: the link stops working; the folder stays. */
  async remove(principal: Principal, id: string): Promise<void> {
    const row = await this.requireOwned(principal, id);
    await this.deps.shares.delete(row.id);
    if (row.type === 'bundle') await this.deps.bundleFiles?.deleteOfShare(row.id);
  }

  // ---------- public side ----------

  private async requireBySlug(slug: string): Promise<FolderShareRow> {
    const row = isLookupFileSlug(slug) ? await this.deps.shares.findBySlug(slug) : undefined;
    if (!row) throw AppError.notFound('share not found');
    return row;
  }

  private assertOpen(row: FolderShareRow): void {
    if (row.expires_at !== null && row.expires_at <= isoNow(this.deps.clock)) {
      throw new AppError('EXPIRED', 'this share has expired', { data: { reason: 'expired' } });
    }
    if (row.max_downloads > 0 && row.downloads >= row.max_downloads) {
      throw new AppError('EXPIRED', 'this share has reached its maximum number of downloads', {
        data: { reason: 'download_limit' },
      });
    }
  }

  private sign(row: FolderShareRow, exp: number): string {
    const fingerprint = row.password_hash ? sha256Hex(row.password_hash).slice(0, 16) : '-';
    return createHmac('sha256', this.tokenKey)
      .update(`${row.id}.${exp}.${fingerprint}`)
      .digest('base64url')
      .slice(0, 32);
  }

  private issueToken(row: FolderShareRow): string {
    const exp = Math.floor(this.deps.clock.now().getTime() / 1000) + SHARE_TOKEN_TTL_S;
    return `${exp.toString(36)}.${this.sign(row, exp)}`;
  }

  private tokenValid(row: FolderShareRow, token: string | undefined): boolean {
    if (!token) return false;
    const [expText, signature, extra] = token.split('.');
    if (!expText || !signature || extra !== undefined) return false;
    const exp = parseInt(expText, 36);
    if (!Number.isSafeInteger(exp) || exp * 1000 < this.deps.clock.now().getTime()) return false;
    return safeEqual(signature, this.sign(row, exp));
  }

  /** The password (counted by the one limiter) or a valid token; 401 password_required / password_wrong. */
  private async assertAccess(row: FolderShareRow, access: ShareAccess): Promise<void> {
    const hash = row.password_hash;
    if (hash === null || this.tokenValid(row, access.token)) return;
    const password = access.password;
    if (password === undefined || password === '') {
      throw new AppError('PASSWORD_REQUIRED', 'this share needs a password');
    }
    const right = await this.deps.limiter.attempt({ kind: 'file', client: access.client, target: row.id }, () =>
      verifyPassword(password, hash),
    );
    if (!right) throw new AppError('PASSWORD_WRONG', 'wrong password');
  }

  /**
   * The principal a share reads the tree as: a key confined to the shared folder with MOUNT_VIEW only, so
   * the vfs's own base-path rules (spelling and real location of links) keep every read inside it.
   */
  private scoped(id: string, folder: string): ApiKeyPrincipal {
    return {
      type: 'apikey',
      keyId: `share:${id}`,
      name: 'folder share',
      permissions: Permission.MOUNT_VIEW,
      basicPath: folder,
      isGuest: 1,
      role: 'GENERAL',
      expiresAt: null,
    };
  }

  /** The share's reader, once its creator still may read the folder (else the link no longer works: 410). */
  private async readerOf(row: FolderShareRow): Promise<ApiKeyPrincipal> {
    const creator = await this.deps.principalOf(row.created_by);
    const gone = () =>
      new AppError('GONE', 'this share no longer works: its creator can no longer read the folder', {
        data: { reason: 'creator' },
      });
    if (!creator) throw gone();
    if (creator.type === 'apikey' && !hasPermission(creator.permissions, Permission.FILE_SHARE)) throw gone();
    if (row.type === 'bundle') return this.scoped(row.id, '/');
    try {
      this.deps.vfs.authorize(creator, row.path, Permission.MOUNT_VIEW);
    } catch {
      throw gone();
    }
    return this.scoped(row.id, row.path);
  }

  /** A path a visitor sent (relative to the shared folder) as a path of the tree inside it; 400 when malformed. */
  private treePath(row: FolderShareRow, relative: string): string {
    const rel = this.deps.vfs.normalise(relative || '/');
    const full = rel === '/' ? row.path : this.deps.vfs.normalise(`${row.path}${rel}`);
    if (!isPathWithin(full, row.path)) throw AppError.notFound('not found in this share');
    return full;
  }

  private relativeOf(row: FolderShareRow, full: string): string {
    return full === row.path ? '/' : full.slice(row.path.length);
  }

  /** Anything outside the folder (a link leading out of it) is simply not in the share. */
  private async inShare<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError && error.kind === 'FORBIDDEN') throw AppError.notFound('not found in this share');
      throw error;
    }
  }

  /** HEAD of the info route: 404/410 as the GET would answer. */
  async peek(slug: string): Promise<void> {
    this.assertOpen(await this.requireBySlug(slug));
  }

  /** GET /api/shares/{slug}: name, type, limits; the rest (and an access token) once the password is given. */
  async info(slug: string, access: ShareAccess): Promise<PublicShareInfo> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    const base: PublicShareInfo = {
      slug: row.slug,
      name: row.name,
      type: row.type === 'bundle' ? 'bundle' : 'folder',
      requires_password: false,
      has_password: row.password_hash !== null,
      expires_at: row.expires_at,
      max_downloads: row.max_downloads,
      downloads: row.downloads,
    };
    if (row.password_hash !== null && !access.password && !this.tokenValid(row, access.token)) {
      return { ...base, requires_password: true };
    }
    await this.assertAccess(row, access);
    await this.readerOf(row);
    await this.deps.shares.countView(row.id);
    return { ...base, remark: row.remark, created_at: row.created_at, access_token: this.issueToken(row) };
  }

  /** GET /api/shares/{slug}/list: one page of a folder inside the share. */
  async list(
    slug: string,
    relative: string,
    access: ShareAccess,
    page: { limit?: number | undefined; offset?: number | undefined },
  ): Promise<PublicShareListing> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    if (row.type === 'bundle') {
      const rel = this.deps.vfs.normalise(relative || '/');
      await this.assertAccess(row, access);
      await this.readerOf(row);
      return this.bundles().list(row.id, rel, page);
    }
    const full = this.treePath(row, relative);
    await this.assertAccess(row, access);
    const reader = await this.readerOf(row);
    const listing = await this.inShare(() =>
      this.deps.vfs.list(reader, full, {
        ...(page.limit !== undefined ? { limit: page.limit } : {}),
        ...(page.offset !== undefined ? { offset: page.offset } : {}),
      }),
    );
    const items = listing.entries.map((e) => this.entryView(row, e));
    return {
      path: this.relativeOf(row, listing.path),
      items,
      total: listing.total,
      limit: page.limit ?? items.length,
      offset: listing.offset,
    };
  }

  private entryView(row: FolderShareRow, entry: VfsEntry): ShareEntryView {
    const view: ShareEntryView = {
      name: entry.name,
      path: this.relativeOf(row, entry.path),
      isDirectory: entry.isDir,
      size: entry.size,
    };
    if (entry.lastModified) view.modified = entry.lastModified;
    if (!entry.isDir) view.mimetype = mimetypeOf(entry.name, entry.contentType);
    return view;
  }

  private async consume(row: FolderShareRow): Promise<void> {
    if (!(await this.deps.shares.consumeDownload(row.id, isoNow(this.deps.clock)))) {
      const now = await this.deps.shares.findById(row.id);
      if (now) this.assertOpen(now);
      throw new AppError('EXPIRED', 'this share has reached its maximum number of downloads', {
        data: { reason: 'download_limit' },
      });
    }
  }

  /**
   * GET /api/shares/{slug}/file: a file's bytes by the safe content rules of the fs API (Range, ETag,
   * sandboxed attachments). A read from the first byte counts a download (a preview reads the file too);
   * later Range requests of the same file, HEAD and 304 do not.
   */
  async file(
    slug: string,
    relative: string,
    access: ShareAccess,
    request: { mode: ContentMode; head: boolean; conditional: ContentRequest['conditional'] },
  ): Promise<ContentResult> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    if (row.type === 'bundle') return this.bundleFile(row, relative, access, request);
    const full = this.treePath(row, relative);
    if (full === row.path) throw AppError.validation('path is the shared folder: download needs a file');
    await this.assertAccess(row, access);
    const reader = await this.readerOf(row);
    let firstByte = true;
    const result = await this.inShare(() =>
      this.deps.fs.content(reader, { path: full, mode: request.mode, head: request.head }, (file) => {
        const cond = request.conditional(file);
        firstByte = cond.range === undefined || (cond.range !== 'unsatisfiable' && cond.range.start === 0);
        return cond;
      }),
    );
    if (result.kind === 'body' && firstByte) {
      try {
        await this.consume(row);
      } catch (error) {
        await result.read.stream.cancel().catch(() => undefined);
        throw error;
      }
    }
    return result;
  }

  /** GET /api/shares/{slug}/zip: a folder of the share as one streamed zip; counts one download. */
  async zip(slug: string, relative: string, access: ShareAccess): Promise<PreparedZip> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    if (row.type === 'bundle') {
      const rel = this.deps.vfs.normalise(relative || '/');
      await this.assertAccess(row, access);
      await this.readerOf(row);
      const prepared = await this.bundles().zip(row.id, rel, row.name);
      await this.consume(row);
      return prepared;
    }
    const full = this.treePath(row, relative);
    await this.assertAccess(row, access);
    const reader = await this.readerOf(row);
    const entry = await this.inShare(() => this.deps.vfs.stat(reader, full));
    if (!entry.isDir) throw AppError.validation('path is a file: a zip needs a folder (download the file instead)');
    const name = full === row.path ? row.name : entry.name;
    const prepared = await this.inShare(() =>
      this.deps.zips.prepare(reader, { paths: [full], ...(name ? { name: name.slice(0, 200) } : {}) }),
    );
    await this.consume(row);
    return prepared;
  }

  private bundles(): BundleContent {
    if (!this.deps.bundles) throw new Error('bundles are not wired');
    return this.deps.bundles;
  }

  private async bundleFile(
    row: FolderShareRow,
    relative: string,
    access: ShareAccess,
    request: { mode: ContentMode; head: boolean; conditional: ContentRequest['conditional'] },
  ): Promise<ContentResult> {
    const rel = this.deps.vfs.normalise(relative || '/');
    if (rel === '/') throw AppError.validation('path is the bundle: download needs a file');
    await this.assertAccess(row, access);
    await this.readerOf(row);
    const { result, firstByte } = await this.bundles().file(row.id, rel, request);
    if (result.kind === 'body' && firstByte) {
      try {
        await this.consume(row);
      } catch (error) {
        await result.read.stream.cancel().catch(() => undefined);
        throw error;
      }
    }
    return result;
  }
}
