/**
 * Upload requests (docs/api/upload-requests.md): a public link others upload files into, with limits.
 * - Create: POST /api/upload-requests {target_path?, max_files?, max_bytes?, max_file_bytes?, expires_in?, password?,
 *   note?} → 201 UploadRequestView. List: GET /api/upload-requests. Revoke: DELETE /api/upload-requests/{id}.
 * - Public: GET /api/upload-requests/{slug} → PublicUploadRequestInfo; POST /api/upload-requests/{slug}/upload
 *   (multipart `file` parts; the password as `X-Share-Password`) → 201 UploadRequestReceipt.
 */
import { expiresInSchema, sharePasswordSchema } from './shares.js';
import { z } from './zod.js';

export const UPLOAD_REQUEST_NOTE_MAX = 2000;
/** Most files one POST …/upload carries. */
export const UPLOAD_REQUEST_FILES_PER_POST = 50;

const limit = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} cannot be negative`)
    .max(max, `${name} is too large`);

export const createUploadRequestSchema = z.strictObject({
  /** A folder of the tree; absent or '': the files become file shares of the creator. */
  target_path: z.string().max(4096, 'target_path is too long').optional(),
  /** 0 or absent: no limit. */
  max_files: limit('max_files', 1_000_000).optional(),
  max_bytes: limit('max_bytes', Number.MAX_SAFE_INTEGER).optional(),
  max_file_bytes: limit('max_file_bytes', Number.MAX_SAFE_INTEGER).optional(),
  expires_in: expiresInSchema.optional(),
  password: sharePasswordSchema.optional(),
  note: z.string().max(UPLOAD_REQUEST_NOTE_MAX, `note may be at most ${UPLOAD_REQUEST_NOTE_MAX} characters`).optional(),
});
export type CreateUploadRequestInput = z.input<typeof createUploadRequestSchema>;
export type CreateUploadRequest = z.output<typeof createUploadRequestSchema>;

export const UPLOAD_REQUEST_STATES = ['open', 'full', 'expired', 'revoked'] as const;
export type UploadRequestState = (typeof UPLOAD_REQUEST_STATES)[number];

/** A request as its creator and the admin see it. Limits: 0 = none. */
export interface UploadRequestView {
  id: string;
  slug: string;
  /** The page: `/r/{slug}` (absolute when PUBLIC_URL is set). */
  url: string;
  /** '' = file shares of the creator. */
  target_path: string;
  note: string;
  has_password: boolean;
  max_files: number;
  max_bytes: number;
  max_file_bytes: number;
  files_received: number;
  bytes_received: number;
  expires_at: string | null;
  revoked_at: string | null;
  last_upload_at: string | null;
  state: UploadRequestState;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** GET /api/upload-requests/{slug}: the limits and what remains; never what others uploaded. */
export interface PublicUploadRequestInfo {
  slug: string;
  requires_password: boolean;
  /** Present once the password is given (or none is needed). */
  note?: string;
  max_files: number;
  max_bytes: number;
  max_file_bytes: number;
  /** null: no limit. */
  files_remaining: number | null;
  bytes_remaining: number | null;
  expires_at: string | null;
}

export interface UploadRequestReceipt {
  files: { name: string; size: number }[];
}

/** A file that arrived through a request (the creator's views and the dashboard). */
export interface ReceivedFileView {
  id: string;
  request_id: string;
  request_slug: string;
  name: string;
  size: number;
  /** Where it went: a path of the tree, or '' for a file share. */
  path: string;
  file_id: string | null;
  created_at: string;
}
