/**
 * Folder shares (docs/api/shares.md): one link to a folder of the tree, browsed without logging in.
 * - Create: POST /api/shares {path, password?, expires_in? (hours), max_downloads?, slug?, remark?} → 201 ShareView.
 * - Manage: GET /api/shares (the caller's; the admin's: all) → ListPage<ShareView>; DELETE /api/shares/{id}.
 * - Public: GET /api/shares/{slug} → PublicShareInfo; /list?path=/sub/ → PublicShareListing;
 *   /file?path=/sub/a.txt (Range, download=true for an attachment); /zip?path=/ (streamed).
 *   The password travels as `X-Share-Password` or `?password=`; an access token from the info answer as `?token=`.
 */
import { expiresInSchema, remarkSchema, sharePasswordSchema, slugSchema } from './shares.js';
import { z } from './zod.js';

export const SHARE_TYPES = ['folder', 'bundle'] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

export { SHARE_PASSWORD_HEADER } from './shareHeaders.js';
/** Most entries one page of a share's listing answers. */
export const SHARE_LIST_LIMIT_MAX = 1000;

export const maxDownloadsSchema = z
  .number({ error: 'max_downloads must be a number' })
  .int('max_downloads must be a whole number')
  .min(0, 'max_downloads cannot be negative')
  .max(1_000_000_000, 'max_downloads is too large');

export const createShareSchema = z.strictObject({
  path: z.string({ error: 'path is required' }).min(1, 'path is required').max(4096, 'path is too long'),
  password: sharePasswordSchema.optional(),
  expires_in: expiresInSchema.optional(),
  max_downloads: maxDownloadsSchema.optional(),
  slug: slugSchema.optional(),
  remark: remarkSchema.optional(),
});
export type CreateShareInput = z.input<typeof createShareSchema>;
export type CreateShare = z.output<typeof createShareSchema>;

export const shareManageListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(500, 'limit must be at most 500')
    .default(50),
  offset: z.coerce.number().int('offset must be a whole number').min(0, 'offset cannot be negative').default(0),
});
export type ShareManageListQuery = z.output<typeof shareManageListQuerySchema>;

const intish = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be an integer` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} is at most ${max}`);

const sharePathField = z.string().max(4096, 'path is too long').default('/');

/** Query of the public share routes; `path` is relative to the shared folder (`/` = the folder itself). */
export const sharePublicQuerySchema = z.object({
  path: sharePathField,
  password: z.string().max(256).optional(),
  token: z.string().max(128).optional(),
  limit: intish('limit', 1, SHARE_LIST_LIMIT_MAX).optional(),
  offset: intish('offset', 0, Number.MAX_SAFE_INTEGER).optional(),
  download: z
    .enum(['true', 'false', '1', '0', ''])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});
export type SharePublicQuery = z.output<typeof sharePublicQuerySchema>;

/** A share as its owner and the admin see it. */
export interface ShareView {
  id: string;
  slug: string;
  /** The page: `/s/{slug}` (absolute when PUBLIC_URL is set). */
  url: string;
  type: ShareType;
  /** The shared folder's name. */
  name: string;
  /** The shared folder's path in the tree (folder shares). */
  path: string;
  remark: string;
  has_password: boolean;
  expires_at: string | null;
  /** 0: unlimited. */
  max_downloads: number;
  downloads: number;
  views: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** GET /api/shares/{slug}: nothing of the content while a password is needed. */
export interface PublicShareInfo {
  slug: string;
  name: string;
  type: ShareType;
  requires_password: boolean;
  has_password: boolean;
  expires_at: string | null;
  max_downloads: number;
  downloads: number;
  /** Present once the password is given (or none is needed). */
  remark?: string;
  created_at?: string;
  /** For <img>/<video> and plain links: pass as `?token=` instead of the password. */
  access_token?: string;
}

/** One entry of a share's listing; `path` is relative to the shared folder. */
export interface ShareEntryView {
  name: string;
  path: string;
  isDirectory: boolean;
  size: number;
  modified?: string;
  mimetype?: string;
}

export interface PublicShareListing {
  /** Relative to the shared folder (`/` = the folder). */
  path: string;
  items: ShareEntryView[];
  total: number;
  limit: number;
  offset: number;
}
