import {
  passkeyLoginSchema,
  passkeyRegisterSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRenameSchema,
  totpDisableSchema,
  totpEnableSchema,
} from '@clipnest/contract';
import {
  adminSessionViewSchema,
  itemsOf,
  loginResultSchema,
  passkeyOptionsSchema,
  passkeyViewSchema,
  recoveryCodesSchema,
  totpSetupSchema,
  twoFactorStatusSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

const tag = 'Sign-in security';

/** server/src/routes/twoFactorRoutes.ts */
export const securityOperations: Operations = {
  'GET /api/admin/2fa': {
    summary: "What protects the admin's sign-in",
    tag,
    access: 'admin',
    answer: { data: twoFactorStatusSchema },
  },
  'POST /api/admin/2fa/setup': {
    summary: 'Start two-factor sign-in: a new TOTP secret',
    description: 'The secret becomes active only with /api/admin/2fa/enable and a code it made.',
    tag,
    access: 'admin',
    answer: { data: totpSetupSchema },
    errors: ['CONFLICT'],
  },
  'POST /api/admin/2fa/enable': {
    summary: 'Turn two-factor sign-in on',
    description: 'Needs a code of the new secret and the current password; answers the recovery codes once.',
    tag,
    access: 'admin',
    body: { json: totpEnableSchema },
    answer: { data: recoveryCodesSchema },
    errors: ['PASSWORD_WRONG', 'TOTP_WRONG', 'CONFLICT', 'RATE_LIMITED'],
  },
  'POST /api/admin/2fa/disable': {
    summary: 'Turn two-factor sign-in off',
    tag,
    access: 'admin',
    body: { json: totpDisableSchema },
    answer: { data: twoFactorStatusSchema },
    errors: ['TOTP_WRONG', 'RATE_LIMITED'],
  },
  'POST /api/admin/2fa/recovery-codes': {
    summary: 'New recovery codes (the old ones stop working)',
    tag,
    access: 'admin',
    body: { json: totpDisableSchema },
    answer: { data: recoveryCodesSchema },
    errors: ['TOTP_WRONG', 'RATE_LIMITED'],
  },
  'GET /api/admin/sessions': {
    summary: "The admin's sign-ins",
    tag,
    access: 'admin',
    answer: { data: itemsOf(adminSessionViewSchema) },
  },
  'DELETE /api/admin/sessions': {
    summary: 'End every sign-in but this one',
    tag,
    access: 'admin',
    answer: { data: z.object({ ended: z.int().min(0) }) },
  },
  'DELETE /api/admin/sessions/{id}': {
    summary: 'End one sign-in',
    tag,
    access: 'admin',
    answer: { data: null },
  },
  'GET /api/admin/passkeys': {
    summary: "The admin's passkeys",
    tag,
    access: 'admin',
    answer: { data: itemsOf(passkeyViewSchema) },
  },
  'POST /api/admin/passkeys/register/options': {
    summary: 'Options to create a passkey',
    description: 'Needs the current password. Pass `options` to navigator.credentials.create.',
    tag,
    access: 'admin',
    body: { json: passkeyRegistrationOptionsSchema },
    answer: { data: passkeyOptionsSchema },
    errors: ['PASSWORD_WRONG', 'RATE_LIMITED'],
  },
  'POST /api/admin/passkeys': {
    summary: 'Add a passkey',
    tag,
    access: 'admin',
    body: { json: passkeyRegisterSchema },
    answer: { data: passkeyViewSchema, status: 201 },
  },
  'PUT /api/admin/passkeys/{id}': {
    summary: 'Rename a passkey',
    tag,
    access: 'admin',
    body: { json: passkeyRenameSchema },
    answer: { data: passkeyViewSchema },
  },
  'DELETE /api/admin/passkeys/{id}': {
    summary: 'Remove a passkey',
    tag,
    access: 'admin',
    answer: { data: null },
  },
  'POST /api/admin/passkeys/login/options': {
    summary: 'Options to sign in with a passkey',
    tag,
    access: 'public',
    answer: { data: passkeyOptionsSchema },
  },
  'POST /api/admin/passkeys/login': {
    summary: 'Sign in with a passkey instead of the password',
    tag,
    access: 'public',
    body: { json: passkeyLoginSchema },
    answer: { data: loginResultSchema },
    errors: ['TOTP_WRONG', 'RATE_LIMITED'],
  },
};
