/**
 * What a restored row must look like: the rules the API enforces when it writes the same rows
 * (slugs, paths, sizes, enums, required fields, timestamps), so a backup can never put into the
 * database a row the app could not have written itself (an empty storage_path made a download 500).
 * One zod object per table; a table without rules here (a feature added later) is checked by
 * GENERIC_RULES only.
 * The rules are the contract's own where the API has them (ids, mount fields, key values), so a row
 * that passes here is one the API can read, change and delete. The CloudPaste import checks the rows it
 * makes with the same function.
 */
import {
  API_KEY_NAME_MAX,
  CUSTOM_KEY_MIN,
  customKeySchema,
  FILENAME_MAX,
  isResourceId,
  isSettingKey,
  mountFieldSchemas,
  mountPathSchema,
  RESOURCE_ID_RULE,
  isValidPermissionMask,
  KEY_ROLES,
  normalizeVirtualPath,
  PASTE_TYPES,
  RESERVED_SLUGS,
  SETTINGS,
  SHARE_TYPES,
  SIGNATURE_EXPIRES_MAX,
  SIGNATURE_EXPIRES_MIN,
  SLUG_MAX,
  SLUG_PATTERN,
  STORAGE_CONFIG_NAME_MAX,
  STORAGE_PROVIDERS,
  STORAGE_TYPES,
  USERNAME_MAX,
} from '@clipnest/contract';
import { z } from 'zod';
import { StorageEndpointGuard } from '../../../net/storageEndpointGuard.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A row's own id: the form the API looks rows up by (anything else could never be managed). */
const id = z
  .string({ error: 'must be a string' })
  .refine(isResourceId, { message: `must be ${RESOURCE_ID_RULE} (the ids the API manages)` });
/** A reference to another row (checked against that table by FOREIGN_KEYS). */
const ref = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(128, 'is too long');
const text = (max: number) => z.string({ error: 'must be a string' }).max(max, `may be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'must not be empty');
const count = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'cannot be negative')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');
const flag = z.union([z.literal(0), z.literal(1)], { error: 'must be 0 or 1' });
const time = z
  .string({ error: 'must be an ISO 8601 time' })
  .refine((v) => ISO_TIME.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be an ISO 8601 time',
  });
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

const slug = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(SLUG_MAX, `may be at most ${SLUG_MAX} characters`)
  .regex(SLUG_PATTERN, 'may only contain letters, digits, - and _')
  .refine((s) => !(RESERVED_SLUGS as readonly string[]).includes(s.toLowerCase()), { message: 'is a reserved word' });

/** A storage key relative to its storage root: non-empty segments, no "." or "..", no backslash or control characters. */
const storagePath = required(1024).refine(
  // eslint-disable-next-line no-control-regex
  (p) => !/[\u0000-\u001f\u007f\\]/.test(p) && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
  { message: 'must be a relative path without empty, "." or ".." segments' },
);

/**
 * A string column checked by a contract schema exactly as stored: the schema's message when it fails,
 * and refused when the schema would have changed it (a path with spaces around it, say).
 */
function exactly(schema: z.ZodType<unknown>) {
  return z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const result = schema.safeParse(value);
    if (!result.success) {
      ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'is invalid' });
    } else if (result.data !== value) {
      ctx.addIssue({ code: 'custom', message: 'has spaces around it' });
    }
  });
}

const shareTimes = { created_at: time, updated_at: time, expires_at: time.nullable() };

const TABLE_RULES: Record<string, z.ZodObject> = {
  admins: z.object({
    id,
    username: required(USERNAME_MAX),
    password_hash: required(1024),
    created_at: time,
    updated_at: time,
  }),
  settings: z.object({
    key: z.string({ error: 'must be a string' }).refine(isSettingKey, { message: 'is not a known setting' }),
    value: z.string({ error: 'must be a JSON string' }),
    group_id: z.number({ error: 'must be a number' }).int(),
    updated_at: time,
  }),
  api_keys: z.object({
    id,
    name: required(API_KEY_NAME_MAX),
    key_hash: required(256),
    key_encrypted: text(4096),
    key_prefix: text(64),
    permissions: z.number({ error: 'must be a number' }).int().refine(isValidPermissionMask, {
      message: 'has unknown permission bits',
    }),
    role: oneOf(KEY_ROLES),
    basic_path: text(1024).refine((p) => normalizeVirtualPath(p) !== null, { message: 'is not a valid path' }),
    is_guest: flag,
    enabled: flag,
    expires_at: time.nullable(),
    created_at: time,
    updated_at: time,
    last_used: time.nullable(),
  }),
  storage_configs: z.object({
    id,
    name: required(STORAGE_CONFIG_NAME_MAX),
    storage_type: oneOf(STORAGE_TYPES),
    provider: oneOf(STORAGE_PROVIDERS).nullable(),
    endpoint: text(2048),
    bucket: text(255),
    region: text(64),
    access_key_id: text(1024),
    // An rclone config's whole section (OAuth tokens of a few KiB) is one secret.
    secret_encrypted: text(65536),
    path_style: flag,
    default_folder: text(500),
    custom_host: text(500),
    signature_expires_in: count
      .min(SIGNATURE_EXPIRES_MIN, `must be at least ${SIGNATURE_EXPIRES_MIN}`)
      .max(SIGNATURE_EXPIRES_MAX, `must be at most ${SIGNATURE_EXPIRES_MAX}`),
    total_capacity: count.nullable(),
    is_default: flag,
    options_json: text(16_384).refine(isJsonObject, 'must be a JSON object'),
    created_at: time,
    updated_at: time,
  }),
  files: z.object({
    id,
    slug,
    filename: required(FILENAME_MAX),
    mimetype: text(255),
    size: count,
    storage_config_id: ref,
    storage_path: storagePath,
    etag: text(1024).nullable(),
    remark: text(1000),
    password_hash: text(1024).nullable(),
    max_views: count,
    views: count,
    use_proxy: flag,
    created_by: required(200),
    ...shareTimes,
  }),
  folder_shares: z.object({
    id,
    slug,
    type: oneOf(SHARE_TYPES),
    name: text(FILENAME_MAX),
    path: text(4096).refine((p) => p === '' || normalizeVirtualPath(p) === p, { message: 'is not a valid path' }),
    remark: text(1000),
    password_hash: text(1024).nullable(),
    max_downloads: count,
    downloads: count,
    views: count,
    created_by: required(200),
    ...shareTimes,
  }),
  bundle_files: z.object({
    id,
    share_id: ref,
    file_id: ref,
    name: required(FILENAME_MAX).refine((n) => !n.includes('/') && !n.includes('\\') && n !== '.' && n !== '..', {
      message: 'must be a file name',
    }),
    position: count,
  }),
  upload_requests: z.object({
    id,
    slug,
    target_path: text(4096).refine((p) => p === '' || normalizeVirtualPath(p) === p, {
      message: 'is not a valid path',
    }),
    note: text(2000),
    password_hash: text(1024).nullable(),
    max_files: count,
    max_bytes: count,
    max_file_bytes: count,
    files_received: count,
    bytes_received: count,
    expires_at: time.nullable(),
    revoked_at: time.nullable(),
    last_upload_at: time.nullable(),
    created_by: required(200),
    created_at: time,
    updated_at: time,
  }),
  upload_request_files: z.object({
    id,
    request_id: ref,
    name: required(FILENAME_MAX),
    size: count,
    path: text(4096),
    file_id: ref.nullable(),
    created_at: time,
  }),
  mounts: z.object({
    id,
    name: exactly(mountFieldSchemas.name),
    path: exactly(mountPathSchema),
    storage_type: oneOf(STORAGE_TYPES),
    storage_config_id: ref,
    remark: mountFieldSchemas.remark,
    sort_order: mountFieldSchemas.sort_order,
    cache_ttl: mountFieldSchemas.cache_ttl,
    is_active: flag,
    web_proxy: flag,
    enable_sign: flag,
    sign_expires: mountFieldSchemas.sign_expires,
    webdav_policy: mountFieldSchemas.webdav_policy,
    created_by: required(200),
    created_at: time,
    updated_at: time,
  }),
  pastes: z.object({
    id,
    slug,
    content: z.string({ error: 'must be a string' }),
    type: oneOf(PASTE_TYPES),
    remark: text(1000),
    password_hash: text(1024).nullable(),
    max_views: count,
    views: count,
    created_by: required(200),
    ...shareTimes,
  }),
};

/**
 * Columns a row must carry (the rest may be left to the column's default). A backup from an
 * older install may lack columns added since, so only what every version has written is required.
 */
const REQUIRED: Record<string, string[]> = {
  admins: ['id', 'username', 'password_hash'],
  settings: ['key', 'value'],
  api_keys: ['id', 'name', 'key_hash', 'permissions'],
  storage_configs: ['id', 'name', 'storage_type'],
  files: ['id', 'slug', 'filename', 'size', 'storage_config_id', 'storage_path'],
  folder_shares: ['id', 'slug', 'path', 'created_by'],
  bundle_files: ['id', 'share_id', 'file_id', 'name'],
  upload_requests: ['id', 'slug', 'created_by'],
  upload_request_files: ['id', 'request_id', 'name'],
  mounts: ['id', 'name', 'path', 'storage_config_id'],
  pastes: ['id', 'slug', 'content'],
};

/** Checked for every table, including ones without their own rules (a feature added later). */
const GENERIC_RULES = z.object({ id: id.optional() });

/** Cross-module references: column → the table and key it must name (in the backup or already here). */
export const FOREIGN_KEYS: { table: string; column: string; references: { table: string; key: string } }[] = [
  { table: 'files', column: 'storage_config_id', references: { table: 'storage_configs', key: 'id' } },
  { table: 'mounts', column: 'storage_config_id', references: { table: 'storage_configs', key: 'id' } },
  { table: 'bundle_files', column: 'share_id', references: { table: 'folder_shares', key: 'id' } },
  { table: 'bundle_files', column: 'file_id', references: { table: 'files', key: 'id' } },
  { table: 'upload_request_files', column: 'request_id', references: { table: 'upload_requests', key: 'id' } },
];

export type RowValue = string | number | null;

/**
 * Why a key value is weaker than the API lets a key be (custom keys: CUSTOM_KEY_MIN characters or more,
 * letters, digits, _ and -), or null. An imported or restored key must pass it as a created one does.
 */
export function apiKeyValueProblem(value: string): string | null {
  const result = customKeySchema.safeParse(value);
  if (result.success) return null;
  return `the key value is weaker than the API allows (at least ${CUSTOM_KEY_MIN} letters, digits, _ or -)`;
}

function isJsonObject(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The guard's default rules, for callers that name none (metadata and link-local refused). */
const DEFAULT_ENDPOINT_GUARD = new StorageEndpointGuard();

/**
 * The first problem of a row as `field: message`, or null when the row is valid. A storage config's
 * endpoint is checked by `endpointGuard` (the server's one guard, with its configured rules).
 */
export function rowProblem(
  table: string,
  row: Record<string, RowValue>,
  endpointGuard: Pick<StorageEndpointGuard, 'endpointBlocked'> = DEFAULT_ENDPOINT_GUARD,
): string | null {
  for (const column of REQUIRED[table] ?? []) {
    if (row[column] === undefined || row[column] === null) return `${column}: is required`;
  }
  // Only the columns the row carries are checked: a missing optional column takes its default.
  const result = (TABLE_RULES[table] ?? GENERIC_RULES).partial().safeParse(row);
  if (!result.success) {
    const issue = result.error.issues[0];
    return `${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'is invalid'}`;
  }
  if (table === 'settings') return settingProblem(row);
  if (table === 'storage_configs' && typeof row.endpoint === 'string' && row.endpoint !== '') {
    const blocked = endpointGuard.endpointBlocked(row.endpoint);
    if (blocked) return `endpoint: refused: ${blocked}`;
  }
  return null;
}

/** A setting's value is stored as JSON and must pass the same schema the settings API uses. */
function settingProblem(row: Record<string, RowValue>): string | null {
  const key = String(row.key);
  if (!isSettingKey(key)) return 'key: is not a known setting';
  const def = SETTINGS[key];
  if (row.group_id !== undefined && row.group_id !== def.group) return `group_id: must be ${def.group} for ${key}`;
  let value: unknown;
  try {
    value = JSON.parse(String(row.value));
  } catch {
    return 'value: is not valid JSON';
  }
  const result = def.schema.safeParse(value);
  return result.success ? null : `value: ${result.error.issues[0]?.message ?? 'is invalid'}`;
}
