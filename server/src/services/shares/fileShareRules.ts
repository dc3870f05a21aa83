import { slugSchema, type E2eeParams, type UploadFields } from '@clipnest/contract';
import { AppError } from '../../errors.js';

/** Multipart framing and text fields around the file part, allowed on top of the max size in Content-Length. */
export const MULTIPART_OVERHEAD_ALLOWANCE = 64 * 1024;
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

/** Whether a share is looked up by this slug: one the slug rules allow, or of the shape older and imported ones have. */
export function isLookupFileSlug(slug: string): boolean {
  return slugSchema.safeParse(slug).success || /^[A-Za-z0-9_-]{1,64}$/.test(slug);
}

export function randomSlug(length = 6): string {
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
export function storageName(filename: string): string {
  let safe = filename.replace(/[%\\/:*?"<>|#]/g, '_').replace(/^\.+/, '_');
  while (Buffer.byteLength(safe) > 200) safe = safe.slice(0, -1);
  return `${randomSlug(8)}_${safe || 'file'}`;
}

/** 413 quota_exceeded: the storage config's capacity would be passed; the sizes in message and `data`. */
export function insufficientStorage(size: number, remaining: number, capacity: number, atLeast: boolean): AppError {
  return new AppError(
    'QUOTA_EXCEEDED',
    `insufficient storage: file size ${atLeast ? 'at least ' : ''}${formatBytes(size)}, remaining space ${formatBytes(
      remaining,
    )}, total capacity ${formatBytes(capacity)}`,
    { data: { file_size: size, remaining, total_capacity: capacity } },
  );
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
  /** The share's id (default: a new one); a URL fetch task's share takes the task's id. */
  id?: string;
  /** The share password already hashed (a URL fetch task keeps no clear password); wins over `password`. */
  passwordHash?: string | null;
  /**
   * Every field of the form, known only once the body has ended (fields after the file part): awaited
   * after the bytes are stored and used for the row instead of `fields`; when it throws, the object is
   * removed and nothing is written.
   */
  finalFields?: () => Promise<UploadFields>;
}

/** What a new share row is made of (POST /api/upload and the commit of a direct upload). */
export interface NewShare {
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
  /** E2eeParams of an end-to-end encrypted file (0016). */
  encryption?: E2eeParams;
}

/**
 * An encrypted upload keeps its password on the client and has no server-side remark: refused with a 400
 * rather than stored in the clear next to the ciphertext.
 */
export function checkEncryptedFields(fields: UploadFields): void {
  if (!fields.encryption) return;
  if (fields.encryption.kind !== 'file') {
    throw AppError.validation('encryption.kind must be file', [{ path: 'encryption.kind', message: 'must be file' }]);
  }
  if (fields.password) {
    throw AppError.validation('an encrypted file mixes its password in on the client: do not send password', [
      { path: 'password', message: 'not allowed with encryption' },
    ]);
  }
  if (fields.remark) {
    throw AppError.validation('an encrypted file cannot have a remark the server could read', [
      { path: 'remark', message: 'not allowed with encryption' },
    ]);
  }
}
