import { z } from './zod.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]+$/;
export const USERNAME_MAX = 64;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** A TOTP code (6 digits) or a recovery code (`xxxxx-xxxxx`); spaces and dashes are ignored when it is checked. */
export const secondFactorCodeSchema = z
  .string({ error: 'a code is required' })
  .trim()
  .min(1, 'a code is required')
  .max(32, 'the code is too long');

/** A WebAuthn assertion as `@simplewebauthn/browser` gives it, with the challenge it answers. */
export const passkeyAssertionSchema = z.strictObject({
  challenge_id: z.string({ error: 'challenge_id is required' }).min(1).max(64),
  response: z.looseObject({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.looseObject({}),
  }),
});
export type PasskeyAssertionInput = z.input<typeof passkeyAssertionSchema>;

export const loginSchema = z.strictObject({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(USERNAME_MAX),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(PASSWORD_MAX),
  /** The second factor when two-factor sign-in is on: a current TOTP code or an unused recovery code. */
  totp: secondFactorCodeSchema.optional(),
  /** Or a passkey as the second factor. */
  passkey: passkeyAssertionSchema.optional(),
});
export type LoginInput = z.input<typeof loginSchema>;

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'username must be at least 3 characters')
  .max(USERNAME_MAX, `username must be at most ${USERNAME_MAX} characters`)
  .regex(USERNAME_PATTERN, 'username may only contain letters, digits and . _ @ -');

export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`);

/** Spec §5 account update: current password required, at least one change, new password differs. */
export const changePasswordSchema = z
  .strictObject({
    currentPassword: z.string({ error: 'currentPassword is required' }).min(1, 'currentPassword is required'),
    newPassword: z.union([newPasswordSchema, z.literal('').transform(() => undefined)]).optional(),
    newUsername: z.union([usernameSchema, z.literal('').transform(() => undefined)]).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.newPassword === undefined && value.newUsername === undefined) {
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'give a new username or a new password' });
    }
    if (value.newPassword !== undefined && value.newPassword === value.currentPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['newPassword'],
        message: 'the new password must differ from the current one',
      });
    }
  });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

export interface LoginResult {
  token: string;
  username: string;
  expires_at: string;
}

/** `data` of a 401 `totp_required`: which second factors the sign-in may continue with. */
export interface SecondFactorRequired {
  methods: ('totp' | 'recovery_code' | 'passkey')[];
}

export interface AdminTokenTestResult {
  valid: true;
  username: string;
  expires_at: string;
}

export type AuthType = 'none' | 'admin' | 'apikey';
