/**
 * The fs API (spec §7 "Filesystem": /api/fs/*) over the mount tree. Paths are virtual (`/mount/dir/file`),
 * sent decoded once (query string or JSON); `..`, encoded dots / slashes / NUL, backslashes, control
 * characters and paths over 4,096 bytes are a 400 naming the field. See docs/api/fs.md.
 */
import { expiresInSchema, maxViewsSchema, sharePasswordSchema } from './shares.js';
import type { StorageType } from './storageConfigs.js';
import { z } from './zod.js';

// Limits and thumbnail helpers live apart from the schemas so the web can import them without zod.
export * from './fsLimits.js';

/** Most paths one batch-remove takes. */
export const FS_BATCH_MAX = 1000;
/** Most entries one list page answers. */
export const FS_LIST_LIMIT_MAX = 10_000;
/** file-link expiry bounds, seconds. */
export const FS_LINK_TTL_DEFAULT = 3600;
export const FS_LINK_TTL_MAX = 7 * 86_400;

const pathField = (name: string) => z.string({ error: `${name} is required` }).min(1, `${name} is required`);

const boolish = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === '1');

const intish = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be an integer` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} is at most ${max}`);

export const fsListQuerySchema = z.strictObject({
  path: z.string().default('/'),
  refresh: boolish.optional(),
  limit: intish('limit', 1, FS_LIST_LIMIT_MAX).optional(),
  offset: intish('offset', 0, Number.MAX_SAFE_INTEGER).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'cursor must come from a previous page')
    .optional(),
});

export const fsPathQuerySchema = z.strictObject({ path: pathField('path') });

export const fsDownloadQuerySchema = z.strictObject({
  path: pathField('path'),
  /** Answer as an attachment even for types shown inline. */
  download: boolish.optional(),
  /** A signed proxy link from /api/fs/file-link carries these instead of credentials. */
  expires: z
    .string()
    .regex(/^\d{1,12}$/, 'expires must be a Unix time')
    .optional(),
  sign: z.string().max(128).optional(),
  /** Who issued the signed link (`apikey:<id>` or the admin's id): checked against that key when the link is used. */
  by: z.string().min(1).max(160).optional(),
});

/** GET /api/fs/office-preview?path=: the office viewer (Microsoft or Google, preview settings) around a file link. */
export const fsOfficePreviewQuerySchema = z.strictObject({ path: pathField('path') });
export const fsFileLinkQuerySchema = z.strictObject({
  path: pathField('path'),
  /** Seconds the link stays valid (default 3600, at most 7 days). */
  expires_in: intish('expires_in', 1, FS_LINK_TTL_MAX).optional(),
  force_download: boolish.optional(),
});

export const fsMkdirSchema = z.strictObject({ path: pathField('path') });
export const fsRenameSchema = z.strictObject({ oldPath: pathField('oldPath'), newPath: pathField('newPath') });
export const fsBatchRemoveSchema = z.strictObject({
  paths: z
    .array(z.string({ error: 'paths must be strings' }), { error: 'paths must be a list of paths' })
    .min(1, 'paths must name at least one path')
    .max(FS_BATCH_MAX, `paths takes at most ${FS_BATCH_MAX} paths`),
});
export const fsUpdateSchema = z.strictObject({
  path: pathField('path'),
  content: z.string({ error: 'content must be a string' }),
});
/**
 * POST /api/fs/create-share: a share of a mounted file in place, with the share options of an upload
 * (`password`, `expires_in` in hours with 0 = never, `max_views` with 0 = unlimited; all optional).
 */
export const fsCreateShareSchema = z.strictObject({
  path: pathField('path'),
  password: sharePasswordSchema.optional(),
  expires_in: expiresInSchema.optional(),
  max_views: maxViewsSchema.optional(),
});
export type FsCreateShareRequest = z.input<typeof fsCreateShareSchema>;

/** Text fields of POST /api/fs/upload (multipart/form-data, with the `file` part in any position). */
export const FS_UPLOAD_FIELDS = ['path', 'use_multipart', 'overwrite'] as const;

/** One file or folder of the tree. */
export interface FsEntryView {
  name: string;
  /** Virtual path. */
  path: string;
  isDirectory: boolean;
  size: number;
  /** ISO 8601, when the storage knows it. */
  modified?: string;
  etag?: string;
  mimetype?: string;
  mount_id?: string;
  /** A mount point (or a folder leading to one) rather than a folder of a storage. */
  isMount?: boolean;
  /** A mount point's storage type. */
  storage_type?: StorageType;
}

export interface FsListing {
  path: string;
  isRoot: boolean;
  /** No storage backs the folder (`/`, parents of mount paths): only mount points are listed. */
  isVirtual: boolean;
  mount_id?: string;
  items: FsEntryView[];
  total: number;
  limit: number;
  offset: number;
  /** Present when more entries follow: pass it back as `cursor`. */
  cursor?: string;
  /** true when the listing came from the mount's listing cache. */
  cached: boolean;
}

export interface FsFileLink {
  url: string;
  /** 'presigned': straight to the storage; 'proxy': a signed link through this server. */
  type: 'presigned' | 'proxy';
  expires_at: string;
}

export interface FsRemoveResult {
  removed: string[];
}

// ---- direct uploads into the tree (presigned PUT, multipart) ----------------------------------------

const sizeField = z
  .number({ error: 'fileSize must be a number of bytes' })
  .int('fileSize must be an integer')
  .min(0, 'fileSize cannot be negative');

export const fsPresignSchema = z.object({
  path: pathField('path'),
  fileName: z.string().max(255).optional(),
  contentType: z.string().max(255).optional(),
  fileSize: sizeField,
});
export const fsPresignCommitSchema = z.object({
  /** The target path answered by presign (`targetPath`), or the path sent to it. */
  targetPath: z.string().optional(),
  path: z.string().optional(),
  fileName: z.string().max(255).optional(),
  fileSize: sizeField.optional(),
  etag: z.string().max(255).optional(),
});

export const fsMultipartInitSchema = z.object({
  path: pathField('path'),
  fileName: z.string().max(255).optional(),
  fileSize: sizeField,
  partSize: z.number().int().min(1).optional(),
  partCount: z.number().int().min(1).max(10_000).optional(),
  contentType: z.string().max(255).optional(),
});
const uploadIdField = z.string({ error: 'uploadId is required' }).min(1, 'uploadId is required').max(1024);
const partNumbers = z.array(z.number().int().min(1).max(10_000)).min(1).max(10_000);
export const fsMultipartCompleteSchema = z.object({
  path: pathField('path'),
  uploadId: uploadIdField,
  parts: z
    .array(
      z.object({
        PartNumber: z.number().int().min(1).max(10_000).optional(),
        partNumber: z.number().int().min(1).max(10_000).optional(),
        ETag: z.string().optional(),
        etag: z.string().optional(),
      }),
    )
    .min(1, 'parts must list at least one part'),
  fileName: z.string().max(255).optional(),
  fileSize: sizeField.optional(),
});
export const fsMultipartAbortSchema = z.object({
  path: pathField('path'),
  uploadId: uploadIdField,
  fileName: z.string().optional(),
});
export const fsMultipartListUploadsSchema = z.object({ path: pathField('path') });
export const fsMultipartListPartsSchema = z.object({
  path: pathField('path'),
  uploadId: uploadIdField,
  fileName: z.string().optional(),
});
export const fsMultipartRefreshSchema = z.object({ path: pathField('path'), uploadId: uploadIdField, partNumbers });
export const fsMultipartPartQuerySchema = z.strictObject({
  path: pathField('path'),
  uploadId: uploadIdField,
  partNumber: intish('partNumber', 1, 10_000),
});

export interface FsPresignResult {
  presignedUrl: string;
  targetPath: string;
  contentType: string;
  expires_in: number;
}

export interface FsMultipartInit {
  uploadId: string;
  /** The file's path (a folder path gets fileName appended). */
  path: string;
  partSize: number;
  partCount: number;
  /** true: PUT each part to its URL (S3); false: PUT it to /api/fs/multipart/part (local). */
  presigned: boolean;
  presignedUrls: Array<{ partNumber: number; url: string }>;
}

/** GET /api/fs/thumbnail: a small WebP (or JPEG) of an image, made on the server. */
export const fsThumbnailQuerySchema = z.strictObject({
  path: pathField('path'),
  /** Longest edge in pixels, 16–512 (default 256), rounded up to one of FS_THUMBNAIL_SIZES. */
  size: intish('size', 16, 512).optional(),
  format: z.enum(['webp', 'jpeg'], { error: 'format must be webp or jpeg' }).optional(),
  /** The object's ETag as the listing gave it: makes the URL change with the object, so it may be cached long. */
  v: z.string().max(256).optional(),
});

/** GET /api/fs/archive/entry: one entry of an archive in the tree (`download` forces an attachment). */
export const fsArchiveEntryQuerySchema = z.strictObject({
  path: pathField('path'),
  entry: z.string({ error: 'entry is required' }).min(1, 'entry is required').max(4096, 'entry is too long'),
  download: z.enum(['0', '1', 'true', 'false']).optional(),
});

/** GET /api/public/files/{slug}/archive: a shared archive's listing, with the share's token or password. */
export const shareArchiveQuerySchema = z.strictObject({
  token: z.string().max(4096).optional(),
  password: z.string().max(1024).optional(),
});

/** GET /api/public/files/{slug}/archive/entry: one entry of a shared archive. */
export const shareArchiveEntryQuerySchema = shareArchiveQuerySchema.extend({
  entry: z.string({ error: 'entry is required' }).min(1, 'entry is required').max(4096, 'entry is too long'),
  download: z.enum(['0', '1', 'true', 'false']).optional(),
});
