import { z } from 'zod';
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
