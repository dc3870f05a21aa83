import { createHmac } from 'node:crypto';
import { pipeline } from 'node:stream';
import {
  fileKindOf,
  maxUploadBytes,
  slugSchema,
  type BatchDeleteFilesResult,
  type DeleteMode,
  type FileListQuery,
  type FileView,
  type ListPage,
  type OfficePreviewResult,
  type PublicFileDetails,
  type PublicFileInfo,
  type UpdateFile,
  type UploadFields,
} from '@clipnest/contract';
import type { Updateable } from 'kysely';
import type { FilesTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/errors.js';
import { contentDisposition } from '../http/contentDisposition.js';
import { AppError } from '../errors.js';
import { isoNow, type Clock } from '../lib/clock.js';
import { isWellFormedId, newId } from '../lib/ids.js';
import type { Logger } from '../lib/logger.js';
import type { FileRepository, FileRow, FileWithConfig } from '../repositories/fileRepository.js';
import type { StorageConfigRow } from '../repositories/storageConfigRepository.js';
import { hashPassword, safeEqual, sha256Hex, verifyPassword } from '../security/secrets.js';
import { normalizePath } from '../storage/paths.js';
import { ByteMeter, nodeFromBody } from '../storage/streams.js';
import { isStorageError, type ReadResult, type StorageDriver, type WriteBody } from '../storage/types.js';
import { servingPolicy, shareMimetype, unquoteEtag, type ServingPolicy } from './fileServing.js';
import { creatorId, type Principal } from './principal.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';
import type { SettingsService } from './settingsService.js';
import type { StatsService } from './statsService.js';
import type { StorageConfigService } from './storageConfigService.js';
import { storageToAppError } from './storageErrors.js';

/** Multipart framing and text fields around the file part, allowed on top of the max size in Content-Length. */
export const MULTIPART_OVERHEAD_ALLOWANCE = 64 * 1024;
/** Lifetime of the access tokens in preview/download URLs handed out with a counted view. */
export const ACCESS_TOKEN_TTL_S = 3 * 3600;
/** Lifetime of the token in an office viewer's link (never past the access token it was minted with). */
export const PREVIEW_TOKEN_TTL_S = 3600;
/** Lifetime of presigned redirect URLs (capped by the config's signature_expires_in). */
export const REDIRECT_TTL_MAX_S = 3600;
const SLUG_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 413 for a file above the max upload size setting, with the limit in `data` for clients. */
export function tooLargeError(maxBytes: number, detail = ''): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `file exceeds the maximum upload size of ${formatBytes(maxBytes)}${detail}`,
    {
      data: { max_upload_size: maxBytes },
    },
  );
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(2)} ${units[unit]}`;
}

function randomSlug(length = 6): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => SLUG_ALPHABET[b % SLUG_ALPHABET.length]).join('');
}

/**
 * The display name of an uploaded file: the last segment of what the client sent (some send full paths).
 * Rejects empty names, `.`/`..` (also percent-encoded) and control characters such as NUL.
 */
export function cleanFilename(raw: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw AppError.validation('the file name contains control characters');
  const base = (raw.split(/[\\/]/).pop() ?? '').trim();
  let decoded: string;
  try {
    decoded = decodeURIComponent(base);
  } catch {
    decoded = base;
  }
  if (base === '' || decoded === '.' || decoded === '..' || /^(\.|%2e)+$/i.test(base)) {
    throw AppError.validation('the file name is missing or invalid');
  }
  if (Buffer.byteLength(base) > 255) throw AppError.validation('the file name is too long (255 bytes at most)');
  return base;
}

/** Whether a storage path's last segment is one `storageName` makes (an object of a file share). */
export function isShareObjectPath(path: string): boolean {
  return /^[A-Za-z0-9]{8}_[^/]+$/.test(path.slice(path.lastIndexOf('/') + 1));
}

/** The object name in storage: a random prefix keeps names unique; anything a driver rejects is replaced. */
function storageName(filename: string): string {
  let safe = filename.replace(/[%\\/:*?"<>|#]/g, '_').replace(/^\.+/, '_');
  while (Buffer.byteLength(safe) > 200) safe = safe.slice(0, -1);
  return `${randomSlug(8)}_${safe || 'file'}`;
}

export interface UploadMeta {
  /** Filename the multipart part carried. */
  filename: string;
  /** Content type of the part. */
  partMimetype?: string;
  /** Content-Length of the whole request, when the client sent one. */
  requestLength?: number;
  /** The file's exact size, when known before reading (a raw PUT body with Content-Length). */
  size?: number;
  signal?: AbortSignal;
  /**
   * Every field of the form, known only once the body has ended (fields after the file part): awaited
   * after the bytes are stored and used for the row instead of `fields`; when it throws, the object is
   * removed and nothing is written.
   */
  finalFields?: () => Promise<UploadFields>;
}

/** What a new share row is made of (POST /api/upload and the commit of a direct upload). */
interface NewShare {
  id: string;
  configId: string;
  storagePath: string;
  filename: string;
  mimetype: string;
  size: number;
  etag: string | null;
  slug?: string;
  remark?: string;
  passwordHash?: string | null;
  expiresIn?: number;
  maxViews?: number;
  useProxy?: boolean;
  /** A share of a mounted object in place (POST /api/fs/create-share). */
  mountId?: string;
}

export type ContentMode = 'inline' | 'attachment';

/** `access`: handed out with a counted view; `preview`: an office viewer's link, minted from one. */
type TokenKind = 'access' | 'preview';

export interface ContentRequest {
  slug: string;
  mode: ContentMode;
  token?: string;
  password?: string;
  /** The client's address: wrong passwords are limited per client and share. */
  client: string;
  /** HEAD: answer the headers only; no view is counted and nothing is read. */
  head?: boolean;
  /** Parsed before reading: the route resolves Range against the size this answers. */
  conditional: (file: { etag: string; lastModified: Date; size: number }) => {
    notModified: boolean;
    range?: { start: number; end: number } | 'unsatisfiable';
  };
}

export type ContentResult =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'not_modified';
      etag: string;
      lastModified: Date;
    }
  | { kind: 'unsatisfiable'; size: number }
  | {
      kind: 'head';
      filename: string;
      policy: ServingPolicy;
      disposition: ContentMode;
      etag: string;
      lastModified: Date;
      size: number;
      range?: { start: number; end: number };
    }
  | {
      kind: 'body';
      read: ReadResult;
      filename: string;
      policy: ServingPolicy;
      disposition: ContentMode;
      etag: string;
      lastModified: Date;
      size: number;
    };

export class FileService {
  private readonly tokenKey: Buffer;

  constructor(
    private readonly deps: {
      files: FileRepository;
      storageConfigs: StorageConfigService;
      settings: SettingsService;
      stats: StatsService;
      clock: Clock;
      logger: Logger;
      /** Secret the access tokens are signed with (derived from ENCRYPTION_KEY). */
      tokenSecret: string;
      /** Absolute base URL for links given to third parties (office viewers); else the request origin. */
      publicUrl?: string;
      /** Wrong share passwords per client and share (policy 'file'). */
      limiter: SecretAttemptLimiter;
    },
  ) {
    this.tokenKey = createHmac('sha256', 'clipnest-file-access').update(deps.tokenSecret).digest();
  }

  // ---------- views ----------

  private etagOf(row: FileRow): string {
    if (row.etag) return row.etag.startsWith('"') || row.etag.startsWith('W/') ? row.etag : `"${row.etag}"`;
    return `"${row.id}-${row.size}"`;
  }

  toView(row: FileWithConfig, config?: Pick<StorageConfigRow, 'custom_host'>): FileView {
    const folder = row.storage_path.includes('/') ? row.storage_path.slice(0, row.storage_path.lastIndexOf('/')) : '';
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
      provider_type: row.storage_type ?? 'unknown',
      storage_path: row.storage_path,
      s3_url: config?.custom_host ? `${config.custom_host}/${encodedPath}` : null,
      etag: row.etag,
      link: `/file/${row.slug}`,
      preview_url: `/api/file-view/${encodeURIComponent(row.slug)}`,
      download_url: `/api/file-download/${encodeURIComponent(row.slug)}`,
      created_by: row.created_by,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private async viewOf(id: string): Promise<FileView> {
    const row = await this.deps.files.findById(id);
    if (!row) throw AppError.notFound('file not found');
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => undefined);
    return this.toView(row, config);
  }

  // ---------- upload ----------

  async maxUploadSize(): Promise<number> {
    const values = await this.deps.settings.values();
    return maxUploadBytes(values);
  }

  /** Checks that need no bytes: run before the body is read (Content-Length, slug, config, quota). */
  /** 413 when the request's Content-Length alone shows the file cannot fit under the max upload size. */
  async checkDeclaredSize(requestLength: number | undefined): Promise<number> {
    const maxBytes = await this.maxUploadSize();
    if (requestLength !== undefined && requestLength > maxBytes + MULTIPART_OVERHEAD_ALLOWANCE) {
      throw tooLargeError(maxBytes, ` (request is ${formatBytes(requestLength)})`);
    }
    return maxBytes;
  }

  async prepareUpload(fields: UploadFields, requestLength?: number) {
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
      throw AppError.conflict('the link suffix is taken, try another suffix');
    }
    let remaining = Number.POSITIVE_INFINITY;
    const capacity = config.total_capacity;
    if (capacity !== null) {
      const used = await this.deps.storageConfigs.usedBytes(config.id);
      remaining = Math.max(0, capacity - used);
      if (requestLength !== undefined && requestLength - MULTIPART_OVERHEAD_ALLOWANCE > remaining) {
        throw this.insufficient(requestLength - MULTIPART_OVERHEAD_ALLOWANCE, remaining, capacity, true);
      }
    }
    return { config, folder, maxBytes, remaining };
  }

  private insufficient(size: number, remaining: number, capacity: number, atLeast: boolean): AppError {
    return new AppError(
      'QUOTA_EXCEEDED',
      `insufficient storage: file size ${atLeast ? 'at least ' : ''}${formatBytes(size)}, remaining space ${formatBytes(
        remaining,
      )}, total capacity ${formatBytes(capacity)}`,
      { data: { file_size: size, remaining, total_capacity: capacity } },
    );
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
    prepared: Awaited<ReturnType<FileService['prepareUpload']>>,
  ): Promise<FileView> {
    const filename = cleanFilename(meta.filename);
    const { config, folder, maxBytes, remaining } = prepared;
    const limit = Math.min(maxBytes, remaining);
    const declaredSize = meta.size ?? fields.size;
    if (declaredSize !== undefined && declaredSize > limit) {
      throw declaredSize > maxBytes
        ? tooLargeError(maxBytes)
        : this.insufficient(declaredSize, remaining, config.total_capacity ?? 0, false);
    }
    const driver = this.deps.storageConfigs.driverOf(config);
    const storagePath = folder ? `${folder}/${storageName(filename)}` : storageName(filename);
    let mimetype = shareMimetype(filename, fields.mimetype, meta.partMimetype);

    // Counted and handed to the driver on the Node side: no Web stream hop per chunk.
    const meter = new ByteMeter({ maxBytes: Number.isFinite(limit) ? limit : undefined, path: storagePath });
    const body = pipeline(nodeFromBody(source), meter, () => undefined);
    const tooLarge = () =>
      limit === maxBytes
        ? tooLargeError(maxBytes)
        : this.insufficient(meter.bytes, remaining, config.total_capacity ?? 0, true);

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
    }

    const row = await this.newShareRow(principal, {
      id: newId(),
      configId: config.id,
      storagePath,
      filename,
      mimetype,
      size,
      etag: written.etag ?? null,
      slug: fields.slug,
      remark: fields.remark,
      passwordHash: fields.password ? await hashPassword(fields.password) : null,
      expiresIn: fields.expires_in,
      maxViews: fields.max_views,
      useProxy: fields.use_proxy,
    });
    try {
      // Parallel uploads may each have fit alone: the row goes in only while the capacity still holds it.
      await this.insertWithSlug(row, fields.slug !== undefined, config.total_capacity);
    } catch (error) {
      await driver.remove(storagePath).catch(() => undefined);
      throw error;
    }
    return this.viewOf(row.id);
  }

  // ---------- direct uploads (presigned, multipart, from URL): added for issue 6 ----------

  /**
   * Checks for an upload whose bytes do not pass through POST /api/upload: size against the max upload
   * size and the config's remaining capacity, slug free, folder valid. Answers where the object goes.
   */
  async planDirectUpload(fields: UploadFields, rawFilename: string, size: number, browserType?: string) {
    const filename = cleanFilename(rawFilename);
    const { config, folder, maxBytes, remaining } = await this.prepareUpload(fields);
    if (size > maxBytes) throw tooLargeError(maxBytes);
    if (size > remaining) throw this.insufficient(size, remaining, config.total_capacity ?? 0, false);
    const storagePath = folder ? `${folder}/${storageName(filename)}` : storageName(filename);
    const mimetype = shareMimetype(filename, fields.mimetype, browserType);
    return { config, storagePath, filename, mimetype, driver: this.deps.storageConfigs.driverOf(config) };
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
  private async newShareRow(principal: Principal, input: NewShare): Promise<FileRow> {
    const now = this.deps.clock.now();
    const settings = await this.deps.settings.values();
    return {
      id: input.id,
      slug: input.slug ?? '',
      filename: input.filename,
      mimetype: input.mimetype,
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
  private async insertWithSlug(row: FileRow, custom: boolean, capacity: number | null): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!custom) row.slug = randomSlug(attempt < 3 ? 6 : 10);
      try {
        if (capacity === null) {
          await this.deps.files.insert(row);
        } else {
          const { inserted, used } = await this.deps.files.insertWithinCapacity(row, capacity);
          if (!inserted) throw this.insufficient(row.size, Math.max(0, capacity - used), capacity, false);
        }
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (custom || attempt >= 5) throw AppError.conflict('the link suffix is taken, try another suffix');
      }
    }
  }

  // ---------- public access ----------

  private async requireBySlug(slug: string): Promise<FileWithConfig> {
    const valid = slugSchema.safeParse(slug).success || /^[A-Za-z0-9_-]{1,64}$/.test(slug);
    const row = valid ? await this.deps.files.findBySlug(slug) : undefined;
    if (!row) throw AppError.notFound('file not found');
    return row;
  }

  private assertOpen(row: FileRow): void {
    const now = isoNow(this.deps.clock);
    if (row.expires_at !== null && row.expires_at <= now) throw new AppError('EXPIRED', 'this file share has expired');
    if (row.max_views > 0 && row.views >= row.max_views) {
      throw new AppError('EXPIRED', 'this file share has reached its maximum number of views');
    }
  }

  private async assertPassword(row: FileRow, password: string | undefined, client: string): Promise<void> {
    const hash = row.password_hash;
    if (hash === null) return;
    if (password === undefined || password === '') throw new AppError('PASSWORD_REQUIRED', 'password required');
    const right = await this.deps.limiter.attempt({ kind: 'file', client, target: row.id }, () =>
      verifyPassword(password, hash),
    );
    if (!right) throw new AppError('PASSWORD_WRONG', 'wrong password');
  }

  private async consume(row: FileRow): Promise<void> {
    if (!(await this.deps.files.consumeView(row.id, isoNow(this.deps.clock)))) {
      throw new AppError('EXPIRED', 'this file share has reached its maximum number of views or has expired');
    }
  }

  private passwordFingerprint(row: FileRow): string {
    return row.password_hash ? sha256Hex(row.password_hash).slice(0, 16) : '-';
  }

  /**
   * Access token `exp.signature`, handed out with a counted view: lets <img>/<video> fetch content without
   * the password or another counted view. Preview token `exp.p.signature`: minted from an access token (or
   * a counted view) for an office viewer; it opens the content only and can never mint another token.
   */
  issueToken(row: FileRow, ttlSeconds = ACCESS_TOKEN_TTL_S): string {
    return this.mintToken(row, ttlSeconds, 'access').token;
  }

  /** A token expiring in `ttlSeconds`, but not after `notAfter` (epoch seconds) when given. */
  private mintToken(row: FileRow, ttlSeconds: number, kind: TokenKind, notAfter?: number) {
    const exp = Math.min(Math.floor(this.deps.clock.now().getTime() / 1000) + ttlSeconds, notAfter ?? Infinity);
    const sig = this.sign(row, exp, kind);
    return { token: kind === 'access' ? `${exp.toString(36)}.${sig}` : `${exp.toString(36)}.p.${sig}`, exp };
  }

  private sign(row: FileRow, exp: number, kind: TokenKind): string {
    return createHmac('sha256', this.tokenKey)
      .update(`${row.id}.${exp}.${this.passwordFingerprint(row)}${kind === 'access' ? '' : '.preview'}`)
      .digest('base64url')
      .slice(0, 32);
  }

  /** The kind and expiry (seconds) of a valid, unexpired token of this share; null otherwise. */
  private readToken(row: FileRow, token: string | undefined): { kind: TokenKind; exp: number } | null {
    if (!token) return null;
    const parts = token.split('.');
    const [expText, tag, signature] = parts.length === 3 ? parts : [parts[0], undefined, parts[1]];
    if (parts.length > 3 || !expText || !signature || (tag !== undefined && tag !== 'p')) return null;
    const kind: TokenKind = tag === 'p' ? 'preview' : 'access';
    const exp = parseInt(expText, 36);
    if (!Number.isSafeInteger(exp) || exp * 1000 < this.deps.clock.now().getTime()) return null;
    return safeEqual(signature, this.sign(row, exp, kind)) ? { kind, exp } : null;
  }

  private tokenValid(row: FileRow, token: string | undefined): boolean {
    return this.readToken(row, token) !== null;
  }

  private details(row: FileWithConfig): PublicFileDetails {
    const token = this.issueToken(row);
    const slug = encodeURIComponent(row.slug);
    const q = `?token=${encodeURIComponent(token)}`;
    return {
      slug: row.slug,
      requires_password: false,
      has_password: row.password_hash !== null,
      filename: row.filename,
      mimetype: row.mimetype,
      size: row.size,
      type: fileKindOf(row.filename, row.mimetype),
      remark: row.remark,
      expires_at: row.expires_at,
      max_views: row.max_views,
      views: row.views + 1,
      created_at: row.created_at,
      preview_url: `/api/file-view/${slug}${q}`,
      download_url: `/api/file-download/${slug}${q}`,
      access_token: token,
      inline_safe: servingPolicy(row.mimetype).inline,
    };
  }

  /** HEAD of a share's JSON routes: 404/410 as the GET would answer, and never a counted view. */
  async peek(slug: string): Promise<void> {
    this.assertOpen(await this.requireBySlug(slug));
  }

  /** GET /api/public/files/{slug}: "password required" until verified; each full answer counts a view. */
  async publicInfo(slug: string): Promise<PublicFileInfo> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    if (row.password_hash !== null) return { slug: row.slug, requires_password: true, has_password: true };
    await this.consume(row);
    this.deps.stats.record('file_views');
    return this.details(row);
  }

  async verify(slug: string, password: string, client: string): Promise<PublicFileDetails> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    await this.assertPassword(row, password, client);
    await this.consume(row);
    this.deps.stats.record('file_views');
    return this.details(row);
  }

  /** Token, or password + a counted view. Answers whether a view still has to be counted. */
  private async authorise(
    row: FileRow,
    token: string | undefined,
    password: string | undefined,
    client: string,
  ): Promise<boolean> {
    if (this.tokenValid(row, token)) {
      if (row.expires_at !== null && row.expires_at <= isoNow(this.deps.clock)) {
        throw new AppError('EXPIRED', 'this file share has expired');
      }
      return false;
    }
    if (token) {
      // A stale token: fall back to the password when one came along, else say why.
      if (row.password_hash !== null && !password) {
        throw new AppError('PASSWORD_REQUIRED', 'the download link has expired, refresh the page');
      }
    }
    this.assertOpen(row);
    await this.assertPassword(row, password, client);
    return true;
  }

  /** /api/file-view and /api/file-download. */
  async content(request: ContentRequest): Promise<ContentResult> {
    const row = await this.requireBySlug(request.slug);
    const mustCount = await this.authorise(row, request.token, request.password, request.client);
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => {
      throw AppError.notFound('the storage of this file no longer exists');
    });
    const driver = this.deps.storageConfigs.driverOf(config);
    const etag = this.etagOf(row);
    const lastModified = new Date(row.created_at);
    const policy = servingPolicy(row.mimetype);
    const disposition: ContentMode = request.mode === 'inline' && policy.inline ? 'inline' : 'attachment';

    const redirect = config.storage_type !== 'local' && row.use_proxy === 0 && typeof driver.presign === 'function';
    const cond = request.conditional({ etag, lastModified, size: row.size });
    if (!redirect && cond.notModified) return { kind: 'not_modified', etag, lastModified };
    if (!redirect && cond.range === 'unsatisfiable') return { kind: 'unsatisfiable', size: row.size };

    const range = cond.range === 'unsatisfiable' ? undefined : cond.range;
    // HEAD never counts a view, and never hands out a redirect (its URL would be a free download).
    if (request.head) {
      return { kind: 'head', filename: row.filename, policy, disposition, etag, lastModified, size: row.size, range };
    }
    if (redirect) await this.assertUnchanged(row, config, () => driver.stat(row.storage_path));
    if (mustCount) await this.consume(row);
    const firstBytes = range === undefined || range.start === 0;
    if (firstBytes) this.deps.stats.record(disposition === 'attachment' ? 'file_downloads' : 'file_views');

    if (redirect && driver.presign) {
      const ttl = Math.max(60, Math.min(config.signature_expires_in, REDIRECT_TTL_MAX_S));
      try {
        const url = await driver.presign(row.storage_path, 'get', ttl, {
          contentDisposition: contentDisposition(disposition, row.filename),
          contentType: policy.inline && disposition === 'inline' ? policy.contentType : row.mimetype,
        });
        return { kind: 'redirect', url };
      } catch (error) {
        throw storageToAppError(error);
      }
    }
    let read: ReadResult;
    try {
      read = await driver.read(row.storage_path, range ? { range } : undefined);
    } catch (error) {
      if (isStorageError(error, 'range')) return { kind: 'unsatisfiable', size: row.size };
      throw storageToAppError(error);
    }
    const opened = read;
    await this.assertUnchanged(row, config, async () => opened).catch(async (error: unknown) => {
      await opened.stream.cancel().catch(() => undefined);
      throw error;
    });
    return { kind: 'body', read, filename: row.filename, policy, disposition, etag, lastModified, size: row.size };
  }

  /**
   * What an S3 share serves must be the object committed: a presigned PUT URL still alive (or anyone with
   * the bucket's keys) can replace it. Its size and ETag (HEAD before a redirect, the GET's own headers
   * when proxied) must match the row's, else 409 and nothing is served. Local objects change only
   * through the app and are not checked. Residual risk of redirects: a presigned GET handed out before a
   * replacement stays usable for its lifetime (REDIRECT_TTL_MAX_S at most).
   */
  private async assertUnchanged(
    row: FileRow,
    config: Pick<StorageConfigRow, 'storage_type'>,
    found: () => Promise<{ size: number; etag?: string }>,
  ): Promise<void> {
    if (config.storage_type === 'local') return;
    let object: { size: number; etag?: string };
    try {
      object = await found();
    } catch (error) {
      throw storageToAppError(error);
    }
    const etagDiffers =
      row.etag !== null && object.etag !== undefined && unquoteEtag(row.etag) !== unquoteEtag(object.etag);
    if (object.size === row.size && !etagDiffers) return;
    this.deps.logger.error(
      `file ${row.id}: the stored object (${object.size} bytes, ETag ${object.etag ?? '-'}) no longer matches the share (${row.size} bytes, ETag ${row.etag ?? '-'}); not served`,
    );
    throw AppError.conflict(
      'the stored file no longer matches the shared file (it was replaced after the upload), so it is not served',
    );
  }

  /**
   * GET /api/office-preview/{slug}: a viewer URL around a short-lived public link to the file. The link's
   * preview token is bound to the view that opened it: minted with a counted view (password) or from the
   * access token of one, it expires no later than that access token and cannot mint another.
   */
  async officePreview(
    slug: string,
    access: { token?: string; password?: string; client: string },
    requestOrigin: string,
  ): Promise<OfficePreviewResult> {
    const row = await this.requireBySlug(slug);
    const parent = this.readToken(row, access.token);
    if (parent?.kind === 'preview') {
      throw AppError.forbidden('a preview link cannot open another preview: open the share again');
    }
    const mustCount = await this.authorise(row, access.token, access.password, access.client);
    const provider = await this.deps.settings.get('preview_office_provider');
    if (provider !== 'microsoft' && provider !== 'google') throw AppError.validation('unsupported preview provider');
    if (mustCount) {
      await this.consume(row);
      this.deps.stats.record('file_views');
    }
    const { token, exp } = this.mintToken(row, PREVIEW_TOKEN_TTL_S, 'preview', mustCount ? undefined : parent?.exp);
    const base = this.deps.publicUrl ?? requestOrigin;
    const fileUrl = `${base}/api/file-download/${encodeURIComponent(row.slug)}?token=${encodeURIComponent(token)}`;
    const url =
      provider === 'microsoft'
        ? `https://view.officeapps.live.com/op/view.aspx?src=${encodeURIComponent(fileUrl)}`
        : `https://docs.google.com/viewer?url=${encodeURIComponent(fileUrl)}&embedded=true`;
    return { url, provider, expires_at: new Date(exp * 1000).toISOString() };
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
        throw AppError.conflict('the link suffix is taken, try another suffix');
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
      if (isUniqueViolation(error)) throw AppError.conflict('the link suffix is taken, try another suffix');
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
