import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  FS_LINK_TTL_DEFAULT,
  FS_UPDATE_MAX_BYTES,
  isMarkdownFilename,
  Permission,
  STORAGE_TYPES,
  type FsEntryView,
  type StorageType,
  type FsFileLink,
  type FsListing,
  type FileView,
  hasPermission,
} from '@clipnest/contract';
import mime from 'mime';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { Clock } from '../../lib/clock.js';
import { isStorageError, type Entry, type WriteBody } from '../../storage/types.js';
import type { VfsEntry, VfsListing } from '../../vfs/types.js';
import type { Vfs } from '../../vfs/vfs.js';
import type { FileShareService } from '../shares/fileShareService.js';
import type { ContentMode, ContentRequest, ContentResult } from '../shares/serving/fileServingService.js';
import { cleanMimetype, ownTypePolicy, servingPolicy } from '../../security/inlineContent.js';
import { creatorId, type Principal } from '../../auth/principal.js';
import { hashPassword, safeEqual } from '../../security/secrets.js';
import { storageToAppError } from '../../vfs/errors.js';

type FsListOptions = { refresh?: boolean; limit?: number; offset?: number; cursor?: string };

/** A serialised listing page and what it was cut from (valid while the same cache array answers). */
interface KeptList {
  json: string;
  source: readonly Entry[] | undefined;
  /** The mount points shown in the folder, serialised: a mount edit shows at once. */
  foldersKey: string;
}

/** Pages this small are cheap to build again: only bigger ones are kept serialised. */
const LIST_KEEP_MIN_ENTRIES = 200;
/** Serialised pages kept at most (each holds one page's JSON; 10,000 entries are ~2 MB). */
const LIST_KEEP_MAX = 32;
/** JSON characters kept at most over all pages (their encoded bodies come on top, about as much again). */
const LIST_KEEP_MAX_CHARS = 16 * 1024 * 1024;
/**
 * Entries serialised per turn of the event loop: a listing bigger than this is written a slice at a time, so other
 * requests are answered between the slices (100,000 entries in one go held the loop for ~250 ms).
 */
const LIST_SLICE = 2000;

/** A listing's answer but its entries. */
function listingFields(listing: VfsListing, options: FsListOptions): Omit<FsListing, 'items'> {
  return {
    path: listing.path,
    isRoot: listing.path === '/',
    isVirtual: listing.isVirtual,
    ...(listing.mount ? { mount_id: listing.mount.id } : {}),
    total: listing.total,
    limit: options.limit ?? listing.entries.length,
    offset: listing.offset,
    ...(listing.cursor !== undefined ? { cursor: listing.cursor } : {}),
    cached: listing.cached,
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A listing as JSON, its entries serialised LIST_SLICE at a time with a turn of the event loop between slices.
 * `items` comes last; the other fields are JSON.stringify's own.
 */
async function listingJson(listing: Omit<FsListing, 'items'>, entries: VfsEntry[]): Promise<string> {
  const shell = JSON.stringify(listing);
  const parts: string[] = [];
  for (let start = 0; start < entries.length; start += LIST_SLICE) {
    if (start > 0) await nextTurn();
    parts.push(JSON.stringify(entries.slice(start, start + LIST_SLICE).map(toEntryView)).slice(1, -1));
  }
  return `${shell.slice(0, -1)},"items":[${parts.join(',')}]}`;
}

/** A file's type from its name (Markdown per spec §5), else what the storage says, else octet-stream. */
export function mimetypeOf(name: string, stored?: string): string {
  // Memoised per extension (a folder of 10,000 files asks the same few questions): only for a plain
  // `base.ext` name, where both the Markdown rule and the mime table look at the lower-cased extension alone.
  const dot = name.lastIndexOf('.');
  const memoable = dot > 0 && name.length - dot <= 17 && !name.includes('/') && !name.includes('\\');
  const key = memoable ? `${name.slice(dot + 1).toLowerCase()}\u0000${stored ?? ''}` : '';
  if (memoable) {
    const hit = mimetypeMemo.get(key);
    if (hit !== undefined) return hit;
  }
  const type = isMarkdownFilename(name) ? 'text/markdown' : cleanMimetype(mime.getType(name) ?? stored);
  if (memoable) {
    if (mimetypeMemo.size >= MIMETYPE_MEMO_MAX) mimetypeMemo.clear();
    mimetypeMemo.set(key, type);
  }
  return type;
}
const mimetypeMemo = new Map<string, string>();
const MIMETYPE_MEMO_MAX = 2000;

/** Built field by field (no spread of temporary objects): a big folder turns thousands of entries. */
export function toEntryView(entry: VfsEntry): FsEntryView {
  const view: FsEntryView = { name: entry.name, path: entry.path, isDirectory: entry.isDir, size: entry.size };
  if (entry.lastModified) view.modified = entry.lastModified;
  if (entry.etag) view.etag = entry.etag;
  if (!entry.isDir) view.mimetype = mimetypeOf(entry.name, entry.contentType);
  if (entry.mountId) view.mount_id = entry.mountId;
  if (entry.isMount) view.isMount = true;
  if (entry.storageType && (STORAGE_TYPES as readonly string[]).includes(entry.storageType)) {
    view.storage_type = entry.storageType as StorageType;
  }
  return view;
}

/** A validator for files the storage gives no ETag: size and modification time. */
export function etagOf(entry: VfsEntry): string {
  if (entry.etag) return entry.etag;
  const mtime = entry.lastModified ? Date.parse(entry.lastModified) : 0;
  return `W/"${entry.size.toString(16)}-${mtime.toString(16)}"`;
}

/**
 * The fs API (spec §7 "Filesystem") over the tree: every call goes through the Vfs, which normalises the
 * path, checks the permission bit and the key's basic_path, and resolves the mount.
 */
export class FsService {
  private readonly linkKey: Buffer;
  /** Serialised listing pages of cached folders, least recently used first. */
  private readonly keptLists = new Map<string, KeptList>();
  private keptChars = 0;

  constructor(
    private readonly deps: {
      vfs: Vfs;
      files: Pick<FileShareService, 'createShareForStoredObject'>;
      /** The Content-Disposition a presigned link carries (formatted by the HTTP edge). */
      contentDisposition: (mode: ContentMode, filename: string) => string;
      clock: Clock;
      /** Secret the signed proxy links are derived from (the encryption key). */
      tokenSecret: string;
      /** PUBLIC_URL, for absolute links. */
      publicUrl?: string;
      /**
       * The admin or API key behind a `created_by` value as it is now (undefined: deleted, disabled or
       * expired). A signed link acts as its issuer, checked again at every use.
       */
      principalOf: (createdBy: string) => Promise<Principal | undefined>;
      /** The office viewer of the preview settings (`preview_office_provider`). */
      officeProvider?: () => Promise<string>;
    },
  ) {
    this.linkKey = createHmac('sha256', 'clipnest-fs-link').update(deps.tokenSecret).digest();
  }

  async list(principal: Principal, path: string, options: FsListOptions): Promise<FsListing> {
    return this.toListing(await this.deps.vfs.list(principal, path, options), options);
  }

  /**
   * list() serialised, for GET /api/fs/list. A page cut from a folder the listing cache holds is kept
   * serialised (for as long as the cache keeps that folder's entries, the mount points above it unchanged):
   * repeating it costs no VfsEntry, no FsEntryView and no JSON.stringify of thousands of entries. Access is
   * checked on every call (Vfs.folder) before anything kept is answered. `keep` lives as long as `json`.
   */
  async listJson(principal: Principal, path: string, options: FsListOptions): Promise<{ json: string; keep: object }> {
    const { vfs } = this.deps;
    const folder = await vfs.folder(principal, path, options.refresh === true);
    const total = folder.folders.length + folder.own.length;
    const keepable = folder.cached && folder.source !== undefined && total >= LIST_KEEP_MIN_ENTRIES;
    const key = `${folder.path}\u0000${options.cursor ?? options.offset ?? 0}\u0000${options.limit ?? ''}`;
    const foldersKey = folder.folders.length ? JSON.stringify(folder.folders) : '';
    if (keepable) {
      const hit = this.keptLists.get(key);
      if (hit && hit.source === folder.source && hit.foldersKey === foldersKey) {
        this.keptLists.delete(key);
        this.keptLists.set(key, hit);
        return { json: hit.json, keep: hit };
      }
    }
    const page = vfs.page(folder, options);
    const kept: KeptList = {
      json: await listingJson(listingFields(page, options), page.entries),
      source: folder.source,
      foldersKey,
    };
    if (keepable && kept.json.length <= LIST_KEEP_MAX_CHARS) {
      this.forgetKept(key);
      this.keptLists.set(key, kept);
      this.keptChars += kept.json.length;
      while (this.keptLists.size > LIST_KEEP_MAX || this.keptChars > LIST_KEEP_MAX_CHARS) {
        this.forgetKept(this.keptLists.keys().next().value as string);
      }
    }
    return { json: kept.json, keep: kept };
  }

  private toListing(listing: VfsListing, options: FsListOptions): FsListing {
    return { ...listingFields(listing, options), items: listing.entries.map(toEntryView) };
  }

  private forgetKept(key: string): void {
    const old = this.keptLists.get(key);
    if (!old) return;
    this.keptChars -= old.json.length;
    this.keptLists.delete(key);
  }

  /** Drops the kept serialised listings (tests, memory). */
  forgetKeptListings(): void {
    this.keptLists.clear();
    this.keptChars = 0;
  }

  async get(principal: Principal, path: string): Promise<FsEntryView> {
    return toEntryView(await this.deps.vfs.stat(principal, path));
  }

  async mkdir(principal: Principal, path: string): Promise<FsEntryView> {
    return toEntryView(await this.deps.vfs.mkdir(principal, path));
  }

  async rename(principal: Principal, oldPath: string, newPath: string): Promise<FsEntryView> {
    return toEntryView(await this.deps.vfs.rename(principal, oldPath, newPath));
  }

  async remove(principal: Principal, paths: string[]): Promise<{ removed: string[] }> {
    return { removed: await this.deps.vfs.remove(principal, paths) };
  }

  /**
   * Target of an upload: `path` is the file's full path, or a folder (ending in `/`, or an existing folder)
   * the file's own name is appended to.
   */
  async uploadTarget(principal: Principal, path: string, filename: string): Promise<string> {
    const target = this.deps.vfs.normalise(path);
    const intoFolder = path.endsWith('/') || target === '/' || (await this.isFolder(principal, target));
    if (!intoFolder) return target;
    if (!filename) throw AppError.validation('file: the file part has no name; send the full path in path');
    return this.deps.vfs.normalise(`${target}/${filename}`, 'file name');
  }

  private async isFolder(principal: Principal, path: string): Promise<boolean> {
    try {
      // Asked with the upload right: a key that may only upload can still upload into a folder.
      return (await this.deps.vfs.stat(principal, path, Permission.MOUNT_UPLOAD)).isDir;
    } catch (error) {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') return false;
      throw error;
    }
  }

  /** Streams an upload into the tree (MOUNT_UPLOAD); an existing file is replaced unless overwrite is false. */
  async upload(
    principal: Principal,
    path: string,
    body: WriteBody,
    options: { contentType?: string; maxBytes?: number; size?: number; overwrite?: boolean; signal?: AbortSignal },
  ): Promise<FsEntryView> {
    const name = path.slice(path.lastIndexOf('/') + 1);
    try {
      const entry = await this.deps.vfs.write(principal, path, body, {
        overwrite: options.overwrite ?? true,
        contentType: mimetypeOf(name, options.contentType),
        ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
        ...(options.size !== undefined ? { size: options.size } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return toEntryView(entry);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'CONFLICT' && options.overwrite === false) {
        throw AppError.conflict(`${path} already exists`);
      }
      throw error;
    }
  }

  /** Saves text from the editor (≤ 10 MB; MOUNT_UPLOAD), creating or replacing the file. */
  async update(principal: Principal, path: string, content: string): Promise<FsEntryView> {
    const bytes = Buffer.from(content, 'utf8');
    if (bytes.length > FS_UPDATE_MAX_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'content is larger than 10 MB, the most the editor can save');
    }
    const target = this.deps.vfs.normalise(path);
    return this.upload(principal, target, Readable.from([bytes]), { size: bytes.length });
  }

  // ---- reading ----------------------------------------------------------------------------------------

  /** GET /api/fs/download: a file's bytes with Range / ETag; signed proxy links need no credentials. */
  async content(
    principal: Principal | null,
    request: {
      path: string;
      mode: ContentMode;
      expires?: string;
      sign?: string;
      by?: string;
      head?: boolean;
      /** WebDAV: the file keeps its own type unless it could run script (`ownTypePolicy`). */
      ownType?: boolean;
    },
    conditional: ContentRequest['conditional'],
  ): Promise<ContentResult> {
    const caller = principal ?? (await this.signedCaller(request.path, request.expires, request.sign, request.by));
    const entry = await this.deps.vfs.stat(caller, request.path);
    if (entry.isDir) throw AppError.validation(`${entry.path} is a folder: download needs a file`);
    const etag = etagOf(entry);
    const lastModified = new Date(entry.lastModified ?? 0);
    const mimetype = mimetypeOf(entry.name, entry.contentType);
    const policy = request.ownType ? ownTypePolicy(mimetype) : servingPolicy(mimetype);
    const disposition: ContentMode = request.mode === 'inline' && policy.inline ? 'inline' : 'attachment';
    const cond = conditional({ etag, lastModified, size: entry.size });
    if (cond.notModified) return { kind: 'not_modified', etag, lastModified };
    if (cond.range === 'unsatisfiable') return { kind: 'unsatisfiable', size: entry.size };
    const range = cond.range;
    const base = { filename: entry.name, policy, disposition, etag, lastModified, size: entry.size };
    if (request.head) return { kind: 'head', ...base, ...(range ? { range } : {}) };
    try {
      const { result } = await this.deps.vfs.read(caller, entry.path, range ? { range } : {});
      return { kind: 'body', read: result, ...base };
    } catch (error) {
      if (error instanceof AppError && error.kind === 'RANGE_NOT_SATISFIABLE') {
        return { kind: 'unsatisfiable', size: entry.size };
      }
      throw error;
    }
  }

  /** Signs the path, the expiry and the issuer (`created_by` form): a link names who it acts for. */
  private linkSignature(path: string, expires: number, issuer: string): string {
    return createHmac('sha256', this.linkKey)
      .update(`v2\n${path}\n${expires}\n${issuer}`)
      .digest('base64url')
      .slice(0, 43);
  }

  /**
   * The caller of a signed proxy link: its issuer as it is now. A link of a key that was since deleted,
   * disabled or has expired is refused (403), and the key's current permissions and base path decide
   * (Vfs.stat with this principal). Links signed before issuers were signed (no `by`) are refused.
   */
  private async signedCaller(path: string, expires?: string, sign?: string, by?: string): Promise<Principal> {
    if (!expires || !sign) throw AppError.unauthorized('authentication required: send an admin token or an API key');
    const normalised = this.deps.vfs.normalise(path);
    const exp = Number(expires);
    if (by === undefined || !safeEqual(sign, this.linkSignature(normalised, exp, by))) {
      throw AppError.forbidden('the link signature is not valid for this path');
    }
    if (exp * 1000 < this.deps.clock.now().getTime()) throw new AppError('GONE', 'the link has expired');
    const issuer = await this.deps.principalOf(by);
    if (!issuer) {
      throw AppError.forbidden('this link no longer works: the API key that issued it was disabled or deleted');
    }
    return issuer;
  }

  /**
   * GET /api/fs/file-link: a presigned URL straight to the storage when it can (S3, and the mount does not
   * ask for the web proxy), else a signed proxy link to /api/fs/download with the same expiry.
   */
  async fileLink(
    principal: Principal,
    path: string,
    options: { expiresIn?: number; forceDownload?: boolean; origin: string },
  ): Promise<FsFileLink> {
    const entry = await this.deps.vfs.stat(principal, path);
    if (entry.isDir) throw AppError.validation(`${entry.path} is a folder: a link needs a file`);
    const resolved = await this.deps.vfs.resolve(principal, entry.path, Permission.MOUNT_VIEW);
    const ttl = options.expiresIn ?? resolved.mount.sign_expires ?? FS_LINK_TTL_DEFAULT;
    const expiresAt = Math.floor(this.deps.clock.now().getTime() / 1000) + ttl;
    const mimetype = mimetypeOf(entry.name, entry.contentType);
    const policy = servingPolicy(mimetype);
    const disposition: ContentMode = options.forceDownload || !policy.inline ? 'attachment' : 'inline';
    if (!resolved.mount.web_proxy) {
      try {
        const url = await this.deps.vfs.presign(resolved, 'get', ttl, {
          contentDisposition: this.deps.contentDisposition(disposition, entry.name),
          contentType: disposition === 'inline' ? policy.contentType : mimetype,
        });
        if (url !== undefined) return { url, type: 'presigned', expires_at: new Date(expiresAt * 1000).toISOString() };
      } catch (error) {
        if (!isStorageError(error, 'unsupported')) throw storageToAppError(error);
      }
    }
    const issuer = creatorId(principal);
    const query = new URLSearchParams({
      path: entry.path,
      expires: String(expiresAt),
      by: issuer,
      sign: this.linkSignature(entry.path, expiresAt, issuer),
      ...(disposition === 'attachment' ? { download: 'true' } : {}),
    });
    const base = this.deps.publicUrl ?? options.origin;
    return {
      url: `${base}/api/fs/download?${query.toString()}`,
      type: 'proxy',
      expires_at: new Date(expiresAt * 1000).toISOString(),
    };
  }

  /**
   * GET /api/fs/office-preview: an office document in the viewer of the preview settings, as the file page
   * shows a shared one: the viewer's URL around a 10-minute link to the file (file-link).
   */
  async officePreview(
    principal: Principal,
    path: string,
    origin: string,
  ): Promise<{ url: string; provider: 'builtin' | 'microsoft' | 'google'; expires_at: string }> {
    const provider = this.deps.officeProvider ? await this.deps.officeProvider() : 'builtin';
    if (provider !== 'builtin' && provider !== 'microsoft' && provider !== 'google') {
      throw AppError.validation('unsupported preview provider');
    }
    const link = await this.fileLink(principal, path, { expiresIn: 600, origin });
    // Built in: the page reads the file itself from our own origin (a path, whatever the public URL says).
    if (provider === 'builtin') {
      const url = new URL(link.url);
      return { url: `${url.pathname}${url.search}`, provider, expires_at: link.expires_at };
    }
    const url =
      provider === 'microsoft'
        ? `https://view.officeapps.live.com/op/view.aspx?src=${encodeURIComponent(link.url)}`
        : `https://docs.google.com/viewer?url=${encodeURIComponent(link.url)}&embedded=true`;
    return { url, provider, expires_at: link.expires_at };
  }

  /**
   * POST /api/fs/create-share: a file share pointing at the mounted object in place (no copy). Needs
   * MOUNT_VIEW on the path and FILE_SHARE; deleting the share later leaves the object in its mount.
   */
  async createShare(
    principal: Principal,
    path: string,
    options: { password?: string | undefined; expires_in?: number | undefined; max_views?: number | undefined } = {},
  ): Promise<FileView> {
    if (principal.type === 'apikey' && !hasPermission(principal.permissions, Permission.FILE_SHARE)) {
      throw AppError.forbidden('this API key lacks the file share permission');
    }
    const entry = await this.deps.vfs.stat(principal, path);
    if (entry.isDir) throw AppError.validation(`${entry.path} is a folder: a share needs a file`);
    const resolved = await this.deps.vfs.resolve(principal, entry.path, Permission.MOUNT_VIEW);
    return this.deps.files.createShareForStoredObject(principal, {
      id: newId(),
      configId: resolved.mount.storage_config_id,
      storagePath: resolved.driverPath,
      filename: entry.name,
      mimetype: mimetypeOf(entry.name, entry.contentType),
      size: entry.size,
      etag: entry.etag ?? null,
      mountId: resolved.mount.id,
      passwordHash: options.password ? await hashPassword(options.password) : null,
      ...(options.expires_in !== undefined ? { expiresIn: options.expires_in } : {}),
      ...(options.max_views !== undefined ? { maxViews: options.max_views } : {}),
    });
  }
}
