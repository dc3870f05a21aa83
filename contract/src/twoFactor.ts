import { passkeyAssertionSchema, secondFactorCodeSchema } from './auth.js';
import { z } from './zod.js';

/** GET /api/admin/2fa: what protects the admin's sign-in now. */
export interface TwoFactorStatus {
  totp_enabled: boolean;
  totp_enabled_at: string | null;
  /** Unused recovery codes (0 when TOTP is off). */
  recovery_codes_left: number;
  passkeys: number;
}

/** POST /api/admin/2fa/setup: a new secret to add to an authenticator app; it becomes active with /enable. */
export interface TotpSetupResult {
  secret: string;
  otpauth_url: string;
}

/** The current password confirms a change that a stolen session alone must not make. */
const currentPassword = z.string({ error: 'password is required' }).min(1, 'password is required').max(256);

export const totpEnableSchema = z.strictObject({ code: secondFactorCodeSchema, password: currentPassword });
export type TotpEnableInput = z.input<typeof totpEnableSchema>;

export const totpDisableSchema = z.strictObject({ code: secondFactorCodeSchema });
export type TotpDisableInput = z.input<typeof totpDisableSchema>;

/** POST /api/admin/2fa/enable (and /recovery-codes): shown once, stored hashed. */
export interface RecoveryCodesResult {
  recovery_codes: string[];
}

export const RECOVERY_CODE_COUNT = 10;

/** One sign-in of the admin (a token), as the account page lists it. */
export interface AdminSessionView {
  id: string;
  /** Browser and system parsed from the user agent; null when unknown. */
  browser: string | null;
  os: string | null;
  user_agent: string | null;
  address: string | null;
  auth_method: 'password' | 'totp' | 'recovery_code' | 'passkey' | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
  /** The session making this request. */
  current: boolean;
}

export const PASSKEY_NAME_MAX = 64;
export const passkeyNameSchema = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(PASSKEY_NAME_MAX, `name must be at most ${PASSKEY_NAME_MAX} characters`);

export const passkeyRenameSchema = z.strictObject({ name: passkeyNameSchema });

export const passkeyRegistrationOptionsSchema = z.strictObject({ password: currentPassword });

export const passkeyRegisterSchema = z.strictObject({
  challenge_id: z.string({ error: 'challenge_id is required' }).min(1).max(64),
  name: passkeyNameSchema,
  response: z.looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.looseObject({}),
  }),
});
export type PasskeyRegisterInput = z.input<typeof passkeyRegisterSchema>;

/** POST /api/admin/passkeys/login: a passkey instead of the password. */
export const passkeyLoginSchema = passkeyAssertionSchema;

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Synced between devices (a platform passkey) rather than bound to one authenticator. */
  backed_up: boolean;
}

/** Options for `startRegistration` / `startAuthentication`, with the id of the single-use challenge they hold. */
export interface PasskeyOptionsResult<T = Record<string, unknown>> {
  challenge_id: string;
  options: T;
}
