import type { AuditEntry, AuditLogPage } from '../auditLog.js';
import { AUDIT_OUTCOMES } from '../auditLog.js';
import type {
  AdminSessionView,
  PasskeyOptionsResult,
  PasskeyView,
  RecoveryCodesResult,
  TotpSetupResult,
  TwoFactorStatus,
} from '../twoFactor.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const twoFactorStatusSchema = shapeOf<TwoFactorStatus>()(
  z
    .object({
      totp_enabled: z.boolean(),
      totp_enabled_at: isoTime.nullable(),
      recovery_codes_left: count,
      passkeys: count,
    })
    .meta({ id: 'TwoFactorStatus' }),
);

export const totpSetupSchema = shapeOf<TotpSetupResult>()(
  z.object({
    secret: z.string().meta({ description: 'Base32 secret for an authenticator app.' }),
    otpauth_url: z.string(),
  }),
);

export const recoveryCodesSchema = shapeOf<RecoveryCodesResult>()(
  z.object({ recovery_codes: z.array(z.string()).meta({ description: 'Shown once; stored hashed.' }) }),
);

export const adminSessionViewSchema = shapeOf<AdminSessionView>()(
  z
    .object({
      id: z.string(),
      browser: z.string().nullable(),
      os: z.string().nullable(),
      user_agent: z.string().nullable(),
      address: z.string().nullable(),
      auth_method: z.enum(['password', 'totp', 'recovery_code', 'passkey']).nullable(),
      created_at: isoTime,
      last_used_at: isoTime.nullable(),
      expires_at: isoTime,
      current: z.boolean().meta({ description: 'The session making this request.' }),
    })
    .meta({ id: 'AdminSession' }),
);

export const passkeyViewSchema = shapeOf<PasskeyView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      created_at: isoTime,
      last_used_at: isoTime.nullable(),
      backed_up: z.boolean(),
    })
    .meta({ id: 'Passkey' }),
);

export const passkeyOptionsSchema = shapeOf<PasskeyOptionsResult>()(
  z.object({
    challenge_id: z.string().meta({ description: 'The single-use challenge to send back with the response.' }),
    options: z
      .record(z.string(), z.unknown())
      .meta({ description: 'WebAuthn options for navigator.credentials (JSON form, as @simplewebauthn makes them).' }),
  }),
);

/** `{items, total}` without paging (lists that are always short). */
export function itemsOf<S extends z.ZodType>(item: S) {
  return z.object({ items: z.array(item), total: count });
}

export const auditEntrySchema = shapeOf<AuditEntry>()(
  z
    .object({
      id: z.string(),
      at: isoTime,
      actor: z.string().meta({ description: '`admin:<name>`, `apikey:<id>` or `anonymous`.' }),
      actor_name: z.string().nullable(),
      action: z.string().meta({ description: '`paste.delete`, `auth.login.failed`, `webdav.put`, …' }),
      target: z.string().nullable(),
      outcome: z.enum(AUDIT_OUTCOMES),
      status: z.int(),
      client: z.string().nullable(),
      request_id: z.string().nullable(),
      detail: z.string().nullable(),
    })
    .meta({ id: 'AuditEntry' }),
);

export const auditLogPageSchema = shapeOf<AuditLogPage>()(
  z.object({ items: z.array(auditEntrySchema), total: count, limit: count, offset: count }),
);
