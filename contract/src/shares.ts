import { z } from './zod.js';
import {
  E2EE_ALGORITHM,
  E2EE_CHUNK_SIZE,
  E2EE_IV_BYTES,
  E2EE_KDFS,
  E2EE_PBKDF2_MAX_ITERATIONS,
  E2EE_PBKDF2_MIN_ITERATIONS,
  E2EE_SALT_BYTES,
  E2EE_VERSION,
  type E2eeParams,
} from './e2ee.js';
import { RESERVED_SLUGS, SLUG_MAX, SLUG_PATTERN } from './limits.js';

export const slugSchema = z
  .string()
  .trim()
  .min(1, 'the link suffix cannot be empty')
  .max(SLUG_MAX, `the link suffix may be at most ${SLUG_MAX} characters`)
  .regex(SLUG_PATTERN, 'the link suffix may only contain letters, digits, - and _')
  .refine((s) => !(RESERVED_SLUGS as readonly string[]).includes(s.toLowerCase()), {
    message: 'this link suffix is reserved, choose another',
  });

/** Share expiry presets in hours; 0 means never. A custom value is any whole number of hours. */
export const SHARE_EXPIRY_PRESET_HOURS = [1, 24, 168, 720, 0] as const;
export const SHARE_EXPIRY_MAX_HOURS = 24 * 365 * 10;

export const expiresInSchema = z
  .number({ error: 'expires_in must be a number of hours' })
  .int('expires_in must be whole hours')
  .min(0, 'expires_in cannot be negative')
  .max(SHARE_EXPIRY_MAX_HOURS, 'expires_in is too far in the future');

export const maxViewsSchema = z
  .number({ error: 'max_views must be a number' })
  .int('max_views must be a whole number')
  .min(0, 'max views cannot be negative')
  .max(1_000_000_000, 'max_views is too large');

export const sharePasswordSchema = z.string().max(256, 'the password may be at most 256 characters');

export const remarkSchema = z.string().max(1000, 'the remark may be at most 1000 characters');

// ---------- end-to-end encryption (docs/encryption.md; constants in e2ee.ts) ----------

const base64UrlBytes = (name: string, bytes: number) =>
  z
    .string({ error: `${name} must be base64url` })
    .regex(/^[A-Za-z0-9_-]+$/, `${name} must be base64url without padding`)
    .refine((s) => s.length === Math.ceil((bytes * 4) / 3), `${name} must encode ${bytes} bytes`);

/** `encryption` of an end-to-end encrypted paste or file: public parameters only, never a key. */
export const e2eeParamsSchema = z
  .strictObject({
    v: z.literal(E2EE_VERSION, { error: 'encryption.v must be 1' }),
    alg: z.literal(E2EE_ALGORITHM, { error: `encryption.alg must be ${E2EE_ALGORITHM}` }),
    kind: z.enum(['paste', 'file'], { error: 'encryption.kind must be paste or file' }),
    kdf: z.enum(E2EE_KDFS, { error: `encryption.kdf must be one of ${E2EE_KDFS.join(', ')}` }),
    iterations: z
      .number({ error: 'encryption.iterations must be a number' })
      .int('encryption.iterations must be a whole number')
      .min(0)
      .max(E2EE_PBKDF2_MAX_ITERATIONS, 'encryption.iterations is too large'),
    salt: base64UrlBytes('encryption.salt', E2EE_SALT_BYTES),
    iv: base64UrlBytes('encryption.iv', E2EE_IV_BYTES).optional(),
    chunk_size: z.literal(E2EE_CHUNK_SIZE, { error: `encryption.chunk_size must be ${E2EE_CHUNK_SIZE}` }).optional(),
  })
  .refine((p) => (p.kdf === 'none' ? p.iterations === 0 : p.iterations >= E2EE_PBKDF2_MIN_ITERATIONS), {
    message: `encryption.iterations must be 0 without a password and at least ${E2EE_PBKDF2_MIN_ITERATIONS} with one`,
    path: ['iterations'],
  })
  .refine((p) => (p.kind === 'paste' ? p.iv !== undefined && p.chunk_size === undefined : p.iv === undefined), {
    message: 'a paste needs encryption.iv; a file has none',
    path: ['iv'],
  });
export type E2eeParamsInput = z.input<typeof e2eeParamsSchema>;

/** Stored JSON → params; null for a plain share or an unreadable value. */
export function parseStoredE2ee(json: string | null | undefined): E2eeParams | null {
  if (!json) return null;
  try {
    const parsed = e2eeParamsSchema.safeParse(JSON.parse(json));
    return parsed.success ? (parsed.data as E2eeParams) : null;
  } catch {
    return null;
  }
}
