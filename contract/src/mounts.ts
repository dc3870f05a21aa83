/**
 * Mounts (spec §3 "Mount point", §5, §7 "Mounts": /api/mount/*).
 *
 * - GET /api/mount/list → { items: MountView[], total }: admin sees every mount; a key holder with any mount
 *   permission sees the active mounts its basic_path reaches (the mount is inside the base path, or the base
 *   path is inside the mount).
 * - POST /api/mount/create (createMountSchema) → 201 MountView. Admin only.
 * - PUT /api/mount/{id} (updateMountSchema, every field optional) → MountView. Admin only.
 * - DELETE /api/mount/{id} → 200. Admin only. The mounted storage is not touched.
 * - Nested mounts (`/a` and `/a/b`) are allowed: the longest mount prefix wins, and `/a/b` shows as a
 *   folder in `/a`'s listing.
 */
import { z } from './zod.js';
import { STORAGE_TYPES } from './storageConfigs.js';

export const MOUNT_NAME_MAX = 50;
export const MOUNT_CACHE_TTL_MAX = 86_400;
export const MOUNT_CACHE_TTL_DEFAULT = 300;
export const MOUNT_PATH_MAX = 255;
export const WEBDAV_POLICIES = ['302_redirect', 'native_proxy'] as const;
export type WebdavPolicy = (typeof WEBDAV_POLICIES)[number];

/**
 * First path segments a mount cannot take: the app's own routes (spec §2), the API, WebDAV and static
 * assets, so a mount path never shadows a page or an endpoint when paths are turned into URLs.
 */
export const RESERVED_MOUNT_PATHS = [
  'api',
  'dav',
  'webdav',
  'admin',
  'paste',
  'file',
  'upload',
  'mount-explorer',
  'assets',
  'raw',
  'public',
] as const;

/** `/xxx`: segments of letters, digits, `_`, `-` and Chinese characters, joined by single slashes. */
export const MOUNT_PATH_PATTERN = /^(\/[\p{Script=Han}A-Za-z0-9_-]+)+$/u;

export function isReservedMountPath(path: string): boolean {
  const first = path.split('/')[1]?.toLowerCase() ?? '';
  return (RESERVED_MOUNT_PATHS as readonly string[]).includes(first);
}

/** A mount path the API accepts (restored and imported mounts must pass it too). */
export const mountPathSchema = z
  .string({ error: 'path is required' })
  .trim()
  .min(1, 'path is required')
  .max(MOUNT_PATH_MAX, `path is at most ${MOUNT_PATH_MAX} characters`)
  .refine((v) => v.startsWith('/'), 'path must start with /')
  .refine(
    (v) => !v.startsWith('/') || MOUNT_PATH_PATTERN.test(v),
    'path must look like /xxx: letters, digits, _, -, Chinese characters and single / between them',
  )
  .refine((v) => !isReservedMountPath(v), {
    message: `path is a system-reserved path (${RESERVED_MOUNT_PATHS.map((p) => '/' + p).join(', ')})`,
  });

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);

/** Each mount field's rule, as POST /api/mount/create checks it (restore reuses them per column). */
export const mountFieldSchemas = {
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(MOUNT_NAME_MAX, `name is at most ${MOUNT_NAME_MAX} characters`),
  path: mountPathSchema,
  storage_type: z.enum(STORAGE_TYPES, { error: `storage_type must be one of ${STORAGE_TYPES.join(', ')}` }),
  storage_config_id: z.string({ error: 'storage_config_id is required' }).min(1, 'storage_config_id is required'),
  remark: z.string().max(1000, 'remark is at most 1000 characters'),
  sort_order: z
    .number({ error: 'sort_order must be an integer' })
    .int('sort_order must be an integer')
    .min(-1_000_000)
    .max(1_000_000),
  cache_ttl: z
    .number({ error: 'cache_ttl must be an integer number of seconds' })
    .int('cache_ttl must be an integer number of seconds')
    .min(0, 'cache_ttl cannot be negative')
    .max(MOUNT_CACHE_TTL_MAX, `cache_ttl is at most ${MOUNT_CACHE_TTL_MAX} seconds`),
  is_active: flag,
  web_proxy: flag,
  enable_sign: flag,
  sign_expires: z
    .number({ error: 'sign_expires must be an integer number of seconds' })
    .int('sign_expires must be an integer number of seconds')
    .min(1, 'sign_expires must be at least 1 second')
    .max(30 * 86_400, 'sign_expires is at most 30 days')
    .nullable(),
  webdav_policy: z.enum(WEBDAV_POLICIES, { error: `webdav_policy must be one of ${WEBDAV_POLICIES.join(', ')}` }),
};

export const createMountSchema = z.strictObject({
  name: mountFieldSchemas.name,
  path: mountFieldSchemas.path,
  /** Optional: taken from the storage config; when sent it must match the config's type. */
  storage_type: mountFieldSchemas.storage_type.optional(),
  storage_config_id: mountFieldSchemas.storage_config_id,
  remark: mountFieldSchemas.remark.default(''),
  sort_order: mountFieldSchemas.sort_order.default(0),
  cache_ttl: mountFieldSchemas.cache_ttl.default(MOUNT_CACHE_TTL_DEFAULT),
  is_active: mountFieldSchemas.is_active.default(true),
  web_proxy: mountFieldSchemas.web_proxy.default(false),
  enable_sign: mountFieldSchemas.enable_sign.default(false),
  sign_expires: mountFieldSchemas.sign_expires.default(null),
  webdav_policy: mountFieldSchemas.webdav_policy.default('302_redirect'),
});
export type CreateMount = z.output<typeof createMountSchema>;

export const updateMountSchema = z.strictObject({
  name: mountFieldSchemas.name.optional(),
  path: mountFieldSchemas.path.optional(),
  storage_type: mountFieldSchemas.storage_type.optional(),
  storage_config_id: mountFieldSchemas.storage_config_id.optional(),
  remark: mountFieldSchemas.remark.optional(),
  sort_order: mountFieldSchemas.sort_order.optional(),
  cache_ttl: mountFieldSchemas.cache_ttl.optional(),
  is_active: mountFieldSchemas.is_active.optional(),
  web_proxy: mountFieldSchemas.web_proxy.optional(),
  enable_sign: mountFieldSchemas.enable_sign.optional(),
  sign_expires: mountFieldSchemas.sign_expires.optional(),
  webdav_policy: mountFieldSchemas.webdav_policy.optional(),
});
export type UpdateMount = z.output<typeof updateMountSchema>;

export interface MountView {
  id: string;
  name: string;
  path: string;
  storage_type: string;
  storage_config_id: string;
  remark: string;
  sort_order: number;
  cache_ttl: number;
  is_active: boolean;
  web_proxy: boolean;
  enable_sign: boolean;
  sign_expires: number | null;
  webdav_policy: WebdavPolicy;
  /** 'system', the admin's id, or `apikey:<id>`. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface MountList {
  items: MountView[];
  total: number;
}
