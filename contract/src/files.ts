/**
 * File shares (spec §3 "File share", §5, §7 "Files").
 *
 * Note for the web helper:
 * - Upload: POST /api/upload as FormData. Field names as spec §7: `file` (required), `mimetype`,
 *   `size`, `s3_config_id`, `slug`, `path`, `remark`, `password`, `expires_in` (hours, 0 = never),
 *   `max_views` (0 = unlimited), `use_proxy` ("true"/"false"); any other name is a 400. Fields may
 *   come before or after `file`; when `s3_config_id`, `path` and `size` (empty = default) all come
 *   before it the server streams the file straight through, else it spools it first. Reply 201 FileView.
 *   Use `uploadMimetype(file.name, file.type)` for `mimetype` (Markdown extensions → text/markdown).
 *   Errors: 413 too large, 507-like quota → 413 with message starting "insufficient storage",
 *   409 slug taken, 400 validation (data.fields).
 * - GET /api/system/max-upload-size → { max_upload_size: bytes }.
 * - Public page: GET /api/public/files/{slug} → PublicFileInfo. When `requires_password` is true,
 *   POST /api/public/files/{slug}/verify {password} → PublicFileInfo (401 "wrong password").
 *   Each successful metadata answer counts one view. Use its `preview_url` (inline) and
 *   `download_url` (attachment): they carry a short-lived token, so <img>/<video> work without the
 *   password and without counting more views. 410 = expired or no views left, 404 = not found.
 * - Office: GET /api/office-preview/{slug}?token=… (or ?password=) → { url, provider }.
 * - Management: GET /api/files?limit=&offset=&search=&sort=&order= → ListPage<FileView>;
 *   GET/PUT /api/files/{id} (updateFileSchema) → FileView;
 *   DELETE /api/files/batch-delete {ids, delete_mode} → BatchDeleteFilesResult.
 */
import { z } from './zod.js';
import type { E2eeParams } from './e2ee.js';
import {
  e2eeParamsSchema,
  expiresInSchema,
  maxViewsSchema,
  remarkSchema,
  sharePasswordSchema,
  slugSchema,
} from './shares.js';

/** Form fields are strings: `encryption` comes as JSON text (or an object in a JSON body). */
const jsonField = (v: unknown) => {
  if (v === '' || v === null) return undefined;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

// Name and type helpers live apart from the schemas so the web can import them without zod.
export * from './fileKinds.js';
import type { FileKind } from './fileKinds.js';

export const FILENAME_MAX = 255;
export const UPLOAD_PATH_MAX = 500;

/** Booleans as FormData sends them. */
const formBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0', 'on', 'off', '']).transform((s) => s === 'true' || s === '1' || s === 'on'),
]);

function formInt(schema: z.ZodNumber) {
  return z.union([
    schema,
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, 'must be a whole number')
      .transform((s) => Number(s))
      .pipe(schema),
  ]);
}

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Text fields of POST /api/upload (the `file` part is streamed separately). */
export const uploadFieldsSchema = z.object({
  mimetype: z.string().trim().max(255, 'mimetype is too long').optional(),
  s3_config_id: z.preprocess(emptyToUndefined, z.string().trim().max(64, 's3_config_id is too long').optional()),
  slug: z.preprocess(emptyToUndefined, slugSchema.optional()),
  /** Folder below the config's default folder. Normalised by the server; `..`, NUL and encoded dots are rejected. */
  path: z.preprocess(emptyToUndefined, z.string().max(UPLOAD_PATH_MAX, 'path is too long').optional()),
  remark: z.preprocess(emptyToUndefined, remarkSchema.optional()),
  password: z.preprocess(emptyToUndefined, sharePasswordSchema.optional()),
  expires_in: z.preprocess(emptyToUndefined, formInt(expiresInSchema).optional()),
  max_views: z.preprocess(emptyToUndefined, formInt(maxViewsSchema).optional()),
  use_proxy: z.preprocess(emptyToUndefined, formBoolean.optional()),
  /**
   * The file's exact size in bytes, when the client knows it (the web app sends it before the file part).
   * Checked against the limits before the body is read; a file of another size is refused with 400.
   * With it the server streams to S3 in one PUT instead of buffering multipart parts.
   */
  size: z.preprocess(emptyToUndefined, formInt(z.number().int().min(0, 'size cannot be negative')).optional()),
  /**
   * End-to-end encrypted file (docs/encryption.md): E2eeParams as JSON with kind "file". The bytes are then
   * a CNF1 stream; the server stores the placeholder name/type, refuses `password` and `remark` (the password
   * is mixed in on the client) and offers no preview.
   */
  encryption: z.preprocess(jsonField, e2eeParamsSchema.optional()),
});
export type UploadFields = z.output<typeof uploadFieldsSchema>;

/** The fields of POST /api/upload: the upload fields, and the bundle's. */
export const uploadFormFieldsSchema = uploadFieldsSchema.extend({
  /**
   * Bundle (docs/api/shares.md): several `file` parts and `bundle=true` → one share (`/s/{slug}`) listing them
   * all; `slug`, `remark`, `password`, `expires_in` and `max_downloads` are then the bundle's.
   */
  bundle: z.preprocess(emptyToUndefined, formBoolean.optional()),
  /** Bundles only: downloads allowed (0 = unlimited). */
  max_downloads: z.preprocess(emptyToUndefined, formInt(maxViewsSchema).optional()),
});
export type UploadFormFields = z.output<typeof uploadFormFieldsSchema>;

/** PUT /api/files/{id}. `password`: a string sets it, null or '' clears it, omitted keeps it. */
export const updateFileSchema = z.strictObject({
  remark: remarkSchema.optional(),
  slug: slugSchema.optional(),
  password: z.union([sharePasswordSchema, z.null()]).optional(),
  /** Hours from now; 0 = never expires. */
  expires_in: expiresInSchema.optional(),
  max_views: maxViewsSchema.optional(),
  use_proxy: z.boolean({ error: 'use_proxy must be true or false' }).optional(),
  filename: z
    .string()
    .trim()
    .min(1, 'filename cannot be empty')
    .max(FILENAME_MAX, `filename may be at most ${FILENAME_MAX} characters`)
    .optional(),
});
export type UpdateFileInput = z.input<typeof updateFileSchema>;
export type UpdateFile = z.output<typeof updateFileSchema>;

export const FILE_SORT_FIELDS = ['created_at', 'updated_at', 'filename', 'size', 'views', 'expires_at'] as const;
export type FileSortField = (typeof FILE_SORT_FIELDS)[number];
export const FILE_LIST_DEFAULT_LIMIT = 50;

export const fileListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(500, 'limit must be at most 500')
    .default(FILE_LIST_DEFAULT_LIMIT),
  offset: z.coerce.number().int('offset must be a whole number').min(0, 'offset cannot be negative').default(0),
  search: z.string().trim().max(200, 'search is too long').optional(),
  sort: z.enum(FILE_SORT_FIELDS, { error: `sort must be one of ${FILE_SORT_FIELDS.join(', ')}` }).default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
  s3_config_id: z.string().max(64).optional(),
});
export type FileListQuery = z.output<typeof fileListQuerySchema>;

export const DELETE_MODES = ['both', 'record'] as const;
export type DeleteMode = (typeof DELETE_MODES)[number];

export const batchDeleteFilesSchema = z.strictObject({
  ids: z
    .array(z.string().min(1).max(64), { error: 'ids must be a list of file ids' })
    .min(1, 'select at least one file')
    .max(1000, 'at most 1000 files at once'),
  delete_mode: z.enum(DELETE_MODES, { error: 'delete_mode must be both or record' }).default('both'),
});
export type BatchDeleteFilesInput = z.input<typeof batchDeleteFilesSchema>;

export interface BatchDeleteFilesResult {
  deleted: number;
  failed: { id: string; message: string }[];
}

export const verifyFilePasswordSchema = z.strictObject({
  password: z.string({ error: 'password is required' }).max(256, 'the password may be at most 256 characters'),
});

/** A file share as its owner/admin sees it (spec §3 File share; times ISO UTC). */
export interface FileView {
  id: string;
  /** Same as id (spec name). */
  file_id: string;
  slug: string;
  filename: string;
  mimetype: string;
  /** Bytes. */
  size: number;
  type: FileKind;
  /** Folder of the object inside its storage (derived from storage_path). */
  path: string;
  remark: string;
  has_password: boolean;
  expires_at: string | null;
  /** 0 = unlimited. */
  max_views: number;
  /** Access count. */
  views: number;
  use_proxy: boolean;
  s3_config_id: string;
  storage_config_name: string | null;
  /** The config is the built-in local one (its default name is English: clients word it themselves). */
  storage_config_builtin: boolean;
  /** 'local' | 's3' */
  provider_type: string;
  storage_path: string;
  /** Public URL on the config's custom host, else null. */
  s3_url: string | null;
  etag: string | null;
  /** Share page path: /file/{slug}. */
  link: string;
  /** /api/file-view/{slug} and /api/file-download/{slug} (add ?password= when protected). */
  preview_url: string;
  download_url: string;
  /** Parameters of an end-to-end encrypted file (the object is ciphertext), else null. */
  encryption: E2eeParams | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** GET /api/public/files/{slug} before the password is verified. */
export interface PublicFileLocked {
  slug: string;
  requires_password: true;
  has_password: true;
}

/** GET /api/public/files/{slug} (no password) or POST …/verify. */
export interface PublicFileDetails {
  slug: string;
  requires_password: false;
  has_password: boolean;
  filename: string;
  mimetype: string;
  size: number;
  type: FileKind;
  remark: string;
  expires_at: string | null;
  max_views: number;
  views: number;
  created_at: string;
  /** Inline URL with a short-lived access token. */
  preview_url: string;
  /** Attachment URL with a short-lived access token. */
  download_url: string;
  /** Token used in the URLs above; pass as ?token= to /api/office-preview/{slug}. */
  access_token: string;
  /** True when the file is served inline from our origin (false for HTML/SVG/unknown: download only). */
  inline_safe: boolean;
  /**
   * Parameters of an end-to-end encrypted file, else null. Then `filename`/`mimetype` are placeholders and
   * the client downloads `download_url` (ciphertext) and decrypts it with the key of the link fragment.
   */
  encryption: E2eeParams | null;
  /**
   * True when the caller owns the share (the admin, or the API key that created it): owners see their own
   * shares without a password and without using up a view.
   */
  is_owner?: boolean;
}

export type PublicFileInfo = PublicFileLocked | PublicFileDetails;

/** GET /api/office-preview/{slug} */
export interface OfficePreviewResult {
  /** The viewer's page, or with `builtin` a short-lived link to the file itself on our origin (a path). */
  url: string;
  provider: 'builtin' | 'microsoft' | 'google';
  expires_at: string;
}

/** GET /api/system/max-upload-size */
export interface MaxUploadSize {
  max_upload_size: number;
}
