import { z } from './zod.js';
import { ALL_PERMISSIONS, isValidPermissionMask, KEY_ROLES } from './permissions.js';
import { normalizeVirtualPath } from './paths.js';

export const API_KEY_NAME_MAX = 64;
export const CUSTOM_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;
export const CUSTOM_KEY_MIN = 8;
export const CUSTOM_KEY_MAX = 128;
/** Expiry presets of the key form, in days; `null` is "never". */
export const KEY_EXPIRY_PRESET_DAYS = [1, 7, 30, null] as const;
export const KEY_CUSTOM_DAYS_MAX = 3650;

const permissionsSchema = z
  .number({ error: 'permissions must be a number (bitmask)' })
  .int('permissions must be an integer bitmask')
  .refine(isValidPermissionMask, {
    message: `permissions contains unknown bits (allowed mask: ${ALL_PERMISSIONS})`,
  });

const basicPathSchema = z
  .string()
  .max(1024, 'basic_path is too long')
  .transform((value, ctx) => {
    const normalised = normalizeVirtualPath(value.trim() || '/');
    if (normalised === null) {
      ctx.addIssue({ code: 'custom', message: 'basic_path is not a valid path' });
      return z.NEVER;
    }
    return normalised;
  });

/** ISO date in the future, `null`/"never" for no expiry. */
const expiresAtSchema = z.union([
  z.null(),
  z.literal('never').transform(() => null),
  z.iso.datetime({ offset: true, message: 'expires_at must be an ISO 8601 date, null or "never"' }),
]);

const expiresInDaysSchema = z
  .number()
  .int('expires_in_days must be a whole number of days')
  .min(1, 'expires_in_days must be at least 1')
  .max(KEY_CUSTOM_DAYS_MAX, `expires_in_days must be at most ${KEY_CUSTOM_DAYS_MAX}`);

const nameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(API_KEY_NAME_MAX, `name must be at most ${API_KEY_NAME_MAX} characters`);

/** A key value the API accepts (custom keys; imported and restored keys must pass it too). */
export const customKeySchema = z
  .string()
  .min(CUSTOM_KEY_MIN, `custom_key must be at least ${CUSTOM_KEY_MIN} characters`)
  .max(CUSTOM_KEY_MAX, `custom_key must be at most ${CUSTOM_KEY_MAX} characters`)
  .regex(CUSTOM_KEY_PATTERN, 'custom_key may only contain letters, digits, _ and -');

const isGuestSchema = z.union([z.literal(0), z.literal(1), z.boolean().transform((b) => (b ? 1 : 0))]);

export const createApiKeySchema = z.strictObject({
  name: nameSchema,
  permissions: permissionsSchema.default(0),
  role: z.enum(KEY_ROLES).default('GENERAL'),
  /** '' or null: generate one (CloudPaste's client sends null). */
  custom_key: z
    .union([customKeySchema, z.literal('').transform(() => undefined), z.null().transform(() => undefined)])
    .optional(),
  basic_path: basicPathSchema.default('/'),
  is_guest: isGuestSchema.default(0),
  expires_at: expiresAtSchema.optional(),
  expires_in_days: expiresInDaysSchema.optional(),
  enabled: z.boolean().default(true),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;
export type CreateApiKey = z.output<typeof createApiKeySchema>;

export const updateApiKeySchema = z.strictObject({
  name: nameSchema.optional(),
  permissions: permissionsSchema.optional(),
  role: z.enum(KEY_ROLES).optional(),
  basic_path: basicPathSchema.optional(),
  is_guest: isGuestSchema.optional(),
  expires_at: expiresAtSchema.optional(),
  expires_in_days: expiresInDaysSchema.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateApiKeyInput = z.input<typeof updateApiKeySchema>;
export type UpdateApiKey = z.output<typeof updateApiKeySchema>;

/** An API key as the admin sees it. `key` is shown so the admin can copy it. */
export interface ApiKeyView {
  id: string;
  name: string;
  key: string;
  key_masked: string;
  permissions: number;
  role: string;
  basic_path: string;
  is_guest: 0 | 1;
  enabled: boolean;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  basic_path: string;
  is_guest: 0 | 1;
  role: string;
  expires_at: string | null;
}

/** GET /api/test/api-key */
export interface ApiKeyTestResult {
  name: string;
  basic_path: string;
  permissions: number;
  key_info: ApiKeyInfo;
}
