/**
 * Large and remote uploads (spec §4 "Direct S3 upload", "Multipart upload", "Resume", "URL upload"; §7).
 * The full flow is documented in docs/api/uploads.md.
 *
 * Note for the web helper:
 * - Presigned: POST /api/s3/presign → PUT the bytes to `upload_url` (header Content-Type: `contentType`)
 *   → POST /api/s3/commit {file_id, size, etag} → FileView. On failure after `file_id` is known:
 *   POST /api/s3/cancel {file_id} (also accepted: DELETE /api/files/batch-delete once committed).
 *   Local storage has no presign (`upload_url` is null): use multipart (parts go through the server).
 * - Multipart: POST /api/upload/multipart/init → {file_id, upload_id, part_size, part_count, presigned_parts};
 *   for each part: POST …/sign-parts {file_id, part_numbers} just before the PUT (re-sign on retry);
 *   PUT bytes to `url` (`proxied` urls are our own: send the Authorization header; the server records
 *   the part); for presigned parts read the response's ETag header and report it: in the next
 *   sign-parts call's `completed` [{PartNumber, ETag, size}] (one call per part: report this one, sign
 *   the next) or with POST …/parts {file_id, part_number, etag, size}. Resume: GET …/parts?file_id=
 *   → parts already recorded + `missing`.
 *   Finish: POST …/complete {file_id} → FileView; give up: POST …/abort {file_id}.
 * - URL: POST /api/url/info {url}; GET /api/url/proxy?url= (client-side path); POST /api/url/fetch
 *   (server-side) → job; GET /api/url/jobs/{id} for progress; POST /api/url/cancel {file_id}.
 */
import { z } from './zod.js';
import { FILENAME_MAX, uploadFieldsSchema, type FileView } from './files.js';

/** Part size the clients use (spec §9); the server raises it when the file would need more than 10 000 parts. */
export const MULTIPART_PART_SIZE = 5 * 1024 * 1024;
export const MULTIPART_MAX_PARTS = 10_000;
/** Client behaviour (spec §4): parts in flight, attempts per part, delay × attempt. */
export const MULTIPART_CONCURRENCY = 3;
export const MULTIPART_ATTEMPTS = 3;
export const MULTIPART_RETRY_DELAY_MS = 1000;
/** Unfinished direct uploads older than this are aborted by the server's sweep. */
export const UPLOAD_SESSION_TTL_MS = 24 * 3600 * 1000;
/** Max redirect hops the server follows for URL uploads. */
export const URL_MAX_REDIRECTS = 5;

const filenameSchema = z
  .string({ error: 'filename is required' })
  .trim()
  .min(1, 'filename is required')
  .max(FILENAME_MAX, `filename may be at most ${FILENAME_MAX} characters`);

const sizeSchema = z.coerce
  .number({ error: 'size must be a number' })
  .int('size must be a whole number of bytes')
  .min(1, 'the file is empty')
  .max(Number.MAX_SAFE_INTEGER);

const fileIdSchema = z.string({ error: 'file_id is required' }).trim().min(1, 'file_id is required').max(64);

const urlSchema = z.string({ error: 'url is required' }).trim().min(1, 'url is required').max(4096, 'url is too long');

/** POST /api/s3/presign (spec §7) — the share fields of POST /api/upload plus filename and size. */
export const presignRequestSchema = uploadFieldsSchema.extend({ filename: filenameSchema, size: sizeSchema });
export type PresignRequest = z.input<typeof presignRequestSchema>;

export interface PresignResult {
  /** PUT the bytes here with Content-Type: contentType. */
  upload_url: string;
  file_id: string;
  storage_path: string;
  s3_url: string | null;
  /** The custom slug when one was asked for, else '' (the share gets a random slug at commit). */
  slug: string;
  provider_type: string;
  contentType: string;
  /** Seconds the upload_url stays valid. */
  expires_in: number;
}

/** POST /api/s3/commit. Other spec fields are accepted and ignored: the server kept them at presign. */
export const commitRequestSchema = z.object({
  file_id: fileIdSchema,
  size: sizeSchema.optional(),
  etag: z.string().max(255).optional(),
});
export type CommitRequest = z.input<typeof commitRequestSchema>;

export const fileIdRequestSchema = z.object({ file_id: fileIdSchema, upload_id: z.string().max(1024).optional() });
export type FileIdRequest = z.input<typeof fileIdRequestSchema>;

/** POST /api/upload/multipart/init */
export const multipartInitSchema = presignRequestSchema.extend({
  /** Ignored below the minimum (5 MiB on S3); raised when the file would need more than 10 000 parts. */
  part_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(5 * 1024 * 1024 * 1024)
    .optional(),
});
export type MultipartInitRequest = z.input<typeof multipartInitSchema>;

export interface MultipartInitResult {
  file_id: string;
  upload_id: string;
  /** Same as upload_id (spec name). */
  uploadId: string;
  part_size: number;
  part_count: number;
  storage_path: string;
  slug: string;
  provider_type: string;
  /** true: parts go straight to the bucket via sign-parts URLs; false: PUT them to the server. */
  presigned_parts: boolean;
}

const partNumberSchema = z.coerce
  .number({ error: 'part number must be a number' })
  .int('part number must be a whole number')
  .min(1, 'part numbers start at 1')
  .max(MULTIPART_MAX_PARTS);

/** A part and the ETag its PUT answered (spec shape, either case); `size` is checked where given. */
const reportedPartSchema = z
  .object({
    PartNumber: partNumberSchema.optional(),
    partNumber: partNumberSchema.optional(),
    ETag: z.string().max(255).optional(),
    etag: z.string().max(255).optional(),
    size: z.coerce.number().int().min(0).optional(),
  })
  .transform((p, ctx) => {
    const partNumber = p.PartNumber ?? p.partNumber;
    if (partNumber === undefined) {
      ctx.addIssue({ code: 'custom', message: 'PartNumber is required' });
      return z.NEVER;
    }
    return { partNumber, etag: (p.ETag ?? p.etag ?? '').trim(), size: p.size };
  });

/**
 * POST /api/upload/multipart/sign-parts: sign just before use; retries re-sign. `completed` reports
 * parts PUT since the last call (recorded before signing), so one call per part both records the
 * part just sent and signs the next; `part_numbers` may then be empty (the last parts).
 */
export const signPartsSchema = z
  .object({
    file_id: fileIdSchema,
    part_numbers: z.array(partNumberSchema).max(1000, 'at most 1000 parts').default([]),
    completed: z.array(reportedPartSchema).max(1000, 'at most 1000 parts').optional(),
  })
  .refine((body) => body.part_numbers.length > 0 || (body.completed?.length ?? 0) > 0, {
    message: 'give at least one part number',
    path: ['part_numbers'],
  });
export type SignPartsRequest = z.input<typeof signPartsSchema>;

export interface SignedPart {
  partNumber: number;
  url: string;
  /** true: our own endpoint (send the Authorization header; the server records the part itself). */
  proxied: boolean;
}
export interface SignPartsResult {
  urls: SignedPart[];
  expires_in: number;
  /** The parts of `completed`, as recorded (only when the request had `completed`). */
  recorded?: UploadedPartView[];
}

/** POST /api/upload/multipart/parts: the client reports a part it PUT to a presigned URL. */
export const recordPartSchema = z.object({
  file_id: fileIdSchema,
  part_number: partNumberSchema,
  etag: z.string({ error: 'no ETag obtained' }).trim().min(1, 'no ETag obtained').max(255),
  size: z.coerce.number().int().min(0).optional(),
});
export type RecordPartRequest = z.input<typeof recordPartSchema>;

export interface UploadedPartView {
  PartNumber: number;
  ETag: string;
  size: number;
}

/** GET /api/upload/multipart/parts?file_id= (resume). */
export interface MultipartStatus {
  file_id: string;
  upload_id: string;
  filename: string;
  size: number;
  part_size: number;
  part_count: number;
  presigned_parts: boolean;
  parts: UploadedPartView[];
  /** Part numbers still to send, ascending. Empty → complete at once. */
  missing: number[];
}

/** POST /api/upload/multipart/complete. `parts` is optional: the server has the record; when given it must match. */
export const multipartCompleteSchema = z.object({
  file_id: fileIdSchema,
  upload_id: z.string().max(1024).optional(),
  parts: z.array(reportedPartSchema).max(MULTIPART_MAX_PARTS).optional(),
});
export type MultipartCompleteRequest = z.input<typeof multipartCompleteSchema>;

// ---------- URL upload ----------

export const urlInfoSchema = z.object({ url: urlSchema });

export interface UrlInfo {
  url: string;
  /** After redirects. */
  final_url: string;
  filename: string;
  /** null when the remote did not say. */
  size: number | null;
  mimetype: string;
  supports_range: boolean;
}

/** POST /api/url/presign and /api/url/multipart/init: like the S3 ones plus the source url; filename defaults from it. */
export const urlPresignSchema = uploadFieldsSchema.extend({
  url: urlSchema,
  filename: filenameSchema.optional(),
  size: sizeSchema,
});
export const urlMultipartInitSchema = urlPresignSchema.extend({
  part_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(5 * 1024 * 1024 * 1024)
    .optional(),
});

/** POST /api/url/fetch: the server downloads the URL straight into storage. */
export const urlFetchSchema = uploadFieldsSchema.extend({ url: urlSchema, filename: filenameSchema.optional() });
export type UrlFetchRequest = z.input<typeof urlFetchSchema>;

export const URL_JOB_STATUSES = ['downloading', 'completed', 'failed', 'cancelled'] as const;
export type UrlJobStatus = (typeof URL_JOB_STATUSES)[number];

/** POST /api/url/fetch and GET /api/url/jobs/{id}. */
export interface UrlFetchJob {
  job_id: string;
  /** Same as job_id: POST /api/url/cancel {file_id} cancels it. */
  file_id: string;
  url: string;
  filename: string;
  status: UrlJobStatus;
  received: number;
  /** null when the remote did not send a length. */
  total: number | null;
  /** 0–100, null when the total is unknown. */
  progress: number | null;
  file?: FileView;
  error?: string;
  created_at: string;
}

/** Query of PUT /api/upload-direct/{filename}. */
export const directUploadQuerySchema = uploadFieldsSchema.pick({
  s3_config_id: true,
  slug: true,
  path: true,
  remark: true,
  password: true,
  expires_in: true,
  max_views: true,
  use_proxy: true,
});

/** JSON answer of PUT /api/upload-direct/{filename} (Accept: application/json). */
export interface DirectUploadResult extends FileView {
  /** Absolute share page URL. */
  url: string;
  /** Absolute direct download URL. */
  raw_url: string;
}
