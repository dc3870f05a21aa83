import { z } from './zod.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]+$/;
export const USERNAME_MAX = 64;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export const loginSchema = z.strictObject({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(USERNAME_MAX),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(PASSWORD_MAX),
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

export interface AdminTokenTestResult {
  valid: true;
  username: string;
  expires_at: string;
}

export type AuthType = 'none' | 'admin' | 'apikey';
