import { createHmac } from 'node:crypto';
import {
  archiveFormatOf,
  fileKindOf,
  type ArchiveFormat,
  parseStoredE2ee,
  type OfficePreviewResult,
  type PublicFileDetails,
  type PublicFileInfo,
} from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { isoNow, type Clock } from '../../../lib/clock.js';
import type { Logger } from '../../../lib/logger.js';
import type { FileRepository, FileRow, FileWithConfig } from '../../../repositories/fileRepository.js';
import type { StorageConfigRow } from '../../../repositories/storageConfigRepository.js';
import { hashPassword, needsRehash, safeEqual, sha256Hex, verifyPassword } from '../../../security/secrets.js';
import { isStorageError, type ReadResult } from '../../../storage/types.js';
import type { RangeSource } from '../../fs/archives/rangeSource.js';
import { ownsShare, type Principal } from '../../../auth/principal.js';
import { servingPolicy, unquoteEtag, type ServingPolicy } from '../../../security/inlineContent.js';
import { isLookupFileSlug } from '../fileShareRules.js';
import type { SecretAttemptLimiter } from '../../auth/secretAttemptLimiter.js';
import type { SettingsService } from '../../admin/settingsService.js';
import type { StatsService } from '../../admin/statsService.js';
import type { StorageConfigService } from '../../storageConfigs/storageConfigService.js';
import { storageToAppError } from '../../../vfs/errors.js';

/** Lifetime of the access tokens in preview/download URLs handed out with a counted view. */
export const ACCESS_TOKEN_TTL_S = 3 * 3600;
/** Lifetime of the token in an office viewer's link (never past the access token it was minted with). */
export const PREVIEW_TOKEN_TTL_S = 3600;
/** Lifetime of presigned redirect URLs (capped by the config's signature_expires_in). */
export const REDIRECT_TTL_MAX_S = 3600;

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

/** Public access to file shares: info, password check, access tokens, content (or a redirect), office preview. */
export class FileServingService {
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
      /** The Content-Disposition a redirect's signed URL carries (formatted by the HTTP edge). */
      contentDisposition: (mode: ContentMode, filename: string) => string;
    },
  ) {
    this.tokenKey = createHmac('sha256', 'clipnest-file-access').update(deps.tokenSecret).digest();
  }

  private etagOf(row: FileRow): string {
    if (row.etag) return row.etag.startsWith('"') || row.etag.startsWith('W/') ? row.etag : `"${row.etag}"`;
    return `"${row.id}-${row.size}"`;
  }

  private async requireBySlug(slug: string): Promise<FileWithConfig> {
    const row = isLookupFileSlug(slug) ? await this.deps.files.findBySlug(slug) : undefined;
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
    // Migration-only (CloudPaste import): the unsalted SHA-256 is replaced by scrypt on the first right password.
    // The row is updated in place so a token issued from it carries the new hash's fingerprint.
    if (needsRehash(hash)) {
      row.password_hash = await hashPassword(password);
      await this.deps.files.update(row.id, { password_hash: row.password_hash });
    }
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

  /** `counted`: this answer used up a view (an owner's look is not counted). */
  private details(row: FileWithConfig, counted = true): PublicFileDetails {
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
      views: counted ? row.views + 1 : row.views,
      created_at: row.created_at,
      preview_url: `/api/file-view/${slug}${q}`,
      download_url: `/api/file-download/${slug}${q}`,
      access_token: token,
      inline_safe: servingPolicy(row.mimetype).inline,
      encryption: parseStoredE2ee(row.encryption),
      is_owner: !counted,
    };
  }

  /** HEAD of a share's JSON routes: 404/410 as the GET would answer, and never a counted view. */
  async peek(slug: string): Promise<void> {
    this.assertOpen(await this.requireBySlug(slug));
  }

  /**
   * GET /api/public/files/{slug}: "password required" until verified; each full answer counts a view. The
   * owner (the admin, or the key that created the share) gets the details without a password and uncounted.
   */
  async publicInfo(slug: string, principal: Principal | null = null): Promise<PublicFileInfo> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    if (ownsShare(row.created_by, principal)) return this.details(row, false);
    if (row.password_hash !== null) return { slug: row.slug, requires_password: true, has_password: true };
    await this.consume(row);
    this.deps.stats.record('file_views');
    return this.details(row);
  }

  async verify(
    slug: string,
    password: string,
    client: string,
    principal: Principal | null = null,
  ): Promise<PublicFileDetails> {
    const row = await this.requireBySlug(slug);
    this.assertOpen(row);
    if (ownsShare(row.created_by, principal)) return this.details(row, false);
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
          contentDisposition: this.deps.contentDisposition(disposition, row.filename),
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
   * A shared archive read by ranges, for its listing and single entries (GET /api/public/files/{slug}/archive…).
   * Opened with the access token of a counted view it counts nothing more (a listing is no download); with
   * the password instead it counts one view, as the metadata would. Encrypted shares have no server reading.
   */
  async archiveSource(
    slug: string,
    access: { token?: string; password?: string; client: string },
  ): Promise<{ format: ArchiveFormat; source: RangeSource }> {
    const row = await this.requireBySlug(slug);
    if (row.encryption !== null) {
      throw AppError.validation(
        'an end-to-end encrypted file has no server-side listing: it is decrypted in the browser',
      );
    }
    const format = archiveFormatOf(row.filename);
    if (!format) throw AppError.validation('not an archive this server reads (.zip, .tar, .tar.gz, .tgz)');
    const mustCount = await this.authorise(row, access.token, access.password, access.client);
    const config = await this.deps.storageConfigs.requireRow(row.storage_config_id).catch(() => {
      throw AppError.notFound('the storage of this file no longer exists');
    });
    const driver = this.deps.storageConfigs.driverOf(config);
    if (config.storage_type !== 'local') await this.assertUnchanged(row, config, () => driver.stat(row.storage_path));
    if (mustCount) {
      await this.consume(row);
      this.deps.stats.record('file_views');
    }
    const source: RangeSource = {
      size: row.size,
      read: async (start, end, signal) => {
        try {
          return (
            await driver.read(row.storage_path, { range: { start, end: end - 1 }, ...(signal ? { signal } : {}) })
          ).stream;
        } catch (error) {
          throw storageToAppError(error);
        }
      },
    };
    return { format, source };
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
    if (row.encryption !== null) {
      throw AppError.validation(
        'an end-to-end encrypted file has no server-side preview: it is decrypted in the browser',
      );
    }
    const parent = this.readToken(row, access.token);
    if (parent?.kind === 'preview') {
      throw AppError.forbidden('a preview link cannot open another preview: open the share again');
    }
    const mustCount = await this.authorise(row, access.token, access.password, access.client);
    const provider = await this.deps.settings.get('preview_office_provider');
    if (provider !== 'builtin' && provider !== 'microsoft' && provider !== 'google') {
      throw AppError.validation('unsupported preview provider');
    }
    if (mustCount) {
      await this.consume(row);
      this.deps.stats.record('file_views');
    }
    const { token, exp } = this.mintToken(row, PREVIEW_TOKEN_TTL_S, 'preview', mustCount ? undefined : parent?.exp);
    const path = `/api/file-download/${encodeURIComponent(row.slug)}?token=${encodeURIComponent(token)}`;
    const expires_at = new Date(exp * 1000).toISOString();
    // Built in: the page reads the file from our own origin and renders it; no other site sees the link.
    if (provider === 'builtin') return { url: path, provider, expires_at };
    const fileUrl = `${this.deps.publicUrl ?? requestOrigin}${path}`;
    const url =
      provider === 'microsoft'
        ? `https://view.officeapps.live.com/op/view.aspx?src=${encodeURIComponent(fileUrl)}`
        : `https://docs.google.com/viewer?url=${encodeURIComponent(fileUrl)}&embedded=true`;
    return { url, provider, expires_at };
  }
}
