import { z } from './zod.js';

/** How a recorded request ended, by its status class: 2xx/3xx success, 401/403/429 denied, other 4xx failure, 5xx error. */
export const AUDIT_OUTCOMES = ['success', 'denied', 'failure', 'error'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One audit log entry as `GET /api/admin/audit-log` answers it. */
export interface AuditEntry {
  id: string;
  /** ISO time. */
  at: string;
  /** `admin:<name>`, `apikey:<id>` or `anonymous`. */
  actor: string;
  /** The key's name for `apikey:` actors. */
  actor_name: string | null;
  /** `paste.delete`, `auth.login.failed`, `webdav.put`, … */
  action: string;
  /** What was touched: ids, slugs, paths (never a secret). */
  target: string | null;
  outcome: AuditOutcome;
  status: number;
  /** The client's address (TRUST_PROXY rules). */
  client: string | null;
  request_id: string | null;
  /** A short reason (the error message of a refusal). */
  detail: string | null;
}

export interface AuditLogPage {
  items: AuditEntry[];
  total: number;
  limit: number;
  offset: number;
}

const isoTime = z
  .string()
  .trim()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO 8601 time' })
  .transform((s) => new Date(s).toISOString());

/** Filters of `GET /api/admin/audit-log` (and its CSV export). */
export const auditLogQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(500, 'limit is at most 500')
    .default(50),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset cannot be negative')
    .default(0),
  /** An action (`paste.delete`) or a family of them (`paste` matches `paste.*`). */
  action: z.string().trim().max(64, 'action is too long').optional(),
  /** An actor (`admin:root`, `apikey:<id>`, `anonymous`) or its beginning (`apikey:`). */
  actor: z.string().trim().max(160, 'actor is too long').optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).optional(),
});
export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;
export type AuditLogFilter = Pick<AuditLogQuery, 'action' | 'actor' | 'from' | 'to'>;
