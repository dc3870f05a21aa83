/**
 * The CloudPaste 1.x rows read by the import, as zod schemas: a row that does not fit is a 400 naming
 * the table, the row (1-based, with its id) and the field. Values are raw SQLite values: 0/1 flags and
 * times either ISO 8601 (`…Z`, written by the app) or `YYYY-MM-DD HH:MM:SS` (UTC, SQLite defaults).
 */
import { isResourceId, RESOURCE_ID_RULE } from '@clipnest/contract';
import { z } from 'zod';
import { AppError } from '../../../errors.js';
import type { CloudpasteRow } from './backupFile.js';

const SQLITE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A CloudPaste time as ISO 8601 UTC, or undefined when it is neither of its two formats. */
export function toIso(value: string): string | undefined {
  const local = SQLITE_TIME.exec(value);
  const text = local ? `${local[1]}T${local[2]}Z` : value;
  if (!ISO_TIME.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

const time = z.string({ error: 'must be a time' }).transform((value, ctx) => {
  const iso = toIso(value);
  if (iso === undefined) {
    ctx.addIssue({ code: 'custom', message: `is not a time (${JSON.stringify(value)})` });
    return z.NEVER;
  }
  return iso;
});
const optionalTime = time.nullable().optional();
const id = z.union([z.string().min(1, 'must not be empty'), z.number().int().transform(String)], {
  error: 'must be a string',
});
/** The id a row keeps here: the form the API finds rows by (else nobody could read, change or delete it). */
const ownId = id.refine(isResourceId, { message: `must be ${RESOURCE_ID_RULE} (the ids the API manages)` });
const text = z.string({ error: 'must be a string' });
const optionalText = text.nullable().optional();
const count = z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'cannot be negative');
const flag = z.union([z.literal(0), z.literal(1), z.boolean().transform((b) => (b ? 1 : 0))], {
  error: 'must be 0 or 1',
});
const sha256Hex = z
  .string({ error: 'must be a string' })
  .regex(/^[0-9a-fA-F]{64}$/, 'must be a SHA-256 hex digest')
  .transform((s) => s.toLowerCase());

export const cpPaste = z.looseObject({
  id: ownId,
  slug: text.min(1, 'must not be empty'),
  content: text,
  title: optionalText,
  remark: optionalText,
  password: sha256Hex.nullable().optional(),
  expires_at: optionalTime,
  max_views: count.nullable().optional(),
  views: count.nullable().optional(),
  is_public: flag.nullable().optional(),
  created_by: optionalText,
  created_at: optionalTime,
  updated_at: optionalTime,
});

export const cpPlainPassword = (idColumn: 'paste_id' | 'file_id') =>
  z.looseObject({ [idColumn]: id, plain_password: text });

export const cpFile = z.looseObject({
  id: ownId,
  slug: text.min(1, 'must not be empty'),
  filename: text.min(1, 'must not be empty'),
  storage_config_id: id.nullable().optional(),
  storage_type: optionalText,
  storage_path: optionalText,
  file_path: optionalText,
  mimetype: optionalText,
  size: count.nullable().optional(),
  etag: optionalText,
  remark: optionalText,
  password: sha256Hex.nullable().optional(),
  expires_at: optionalTime,
  max_views: count.nullable().optional(),
  views: count.nullable().optional(),
  use_proxy: flag.nullable().optional(),
  created_by: optionalText,
  created_at: optionalTime,
  updated_at: optionalTime,
});

export const cpStorageConfig = z.looseObject({
  id: ownId,
  name: text.min(1, 'must not be empty'),
  storage_type: text.min(1, 'must not be empty'),
  is_default: flag.nullable().optional(),
  remark: optionalText,
  url_proxy: optionalText,
  config_json: text.transform((value, ctx) => {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'is not a JSON object' });
    return z.NEVER;
  }),
  created_at: optionalTime,
  updated_at: optionalTime,
});

export const cpApiKey = z.looseObject({
  id: ownId,
  name: text.min(1, 'must not be empty'),
  key: text.min(1, 'must not be empty'),
  permissions: count.nullable().optional(),
  role: optionalText,
  basic_path: optionalText,
  is_enable: flag.nullable().optional(),
  is_guest: flag.nullable().optional(),
  expires_at: optionalTime,
  last_used: optionalTime,
  created_at: optionalTime,
  updated_at: optionalTime,
});

export const cpMount = z.looseObject({
  id: ownId,
  name: text.min(1, 'must not be empty'),
  storage_type: optionalText,
  storage_config_id: id,
  mount_path: text.min(1, 'must not be empty'),
  remark: optionalText,
  is_active: flag.nullable().optional(),
  sort_order: z.number({ error: 'must be a number' }).int().nullable().optional(),
  cache_ttl: count.nullable().optional(),
  web_proxy: flag.nullable().optional(),
  webdav_policy: optionalText,
  enable_sign: flag.nullable().optional(),
  sign_expires: count.nullable().optional(),
  created_at: optionalTime,
  updated_at: optionalTime,
});

export const cpSetting = z.looseObject({
  key: text.min(1, 'must not be empty'),
  value: z.union([text, z.number().transform(String), z.null().transform(() => '')], { error: 'must be a string' }),
});

export const cpAcl = z.looseObject({ subject_type: optionalText, subject_id: id, storage_config_id: id });

/** Each row of `table` checked against `schema`; the first bad one is a 400 naming table, row and field. */
export function parseRows<S extends z.ZodType>(
  table: string,
  rows: CloudpasteRow[] | undefined,
  schema: S,
): z.output<S>[] {
  const seen = new Map<string, number>();
  return (rows ?? []).map((row, index) => {
    const result = schema.safeParse(row);
    if (result.success) {
      const id = (result.data as { id?: unknown }).id;
      if (typeof id === 'string') {
        const first = seen.get(id);
        if (first !== undefined) {
          const message = `id: appears twice (also row ${first + 1})`;
          throw AppError.validation(
            `not imported, nothing was changed: table ${table}, row ${index + 1} (${JSON.stringify(id)}): ${message}`,
            [{ path: `backup.data.${table}.${index}.id`, message: `appears twice (also row ${first + 1})` }],
          );
        }
        seen.set(id, index);
      }
      return result.data;
    }
    const issue = result.error.issues[0];
    const field = issue?.path.join('.') || '?';
    const key = row.id ?? row.key ?? row.paste_id ?? row.file_id ?? null;
    const message = `${field}: ${issue?.message ?? 'is invalid'}`;
    throw AppError.validation(
      `not imported, nothing was changed: table ${table}, row ${index + 1} (${JSON.stringify(key)}): ${message}`,
      [{ path: `backup.data.${table}.${index}.${field}`, message: issue?.message ?? 'is invalid' }],
    );
  });
}
