import { auditLogQuerySchema, type AuditEntry } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import { csvLine } from '../http/csv.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readQuery } from '../http/input.js';
import type { AuditLog } from '../services/admin/audit/auditLog.js';

const CSV_COLUMNS = [
  'at',
  'actor',
  'actor_name',
  'action',
  'target',
  'outcome',
  'status',
  'client',
  'request_id',
  'detail',
  'id',
] as const satisfies readonly (keyof AuditEntry)[];

/** GET /api/admin/audit-log: a page of the filtered log, or (`format=csv`) all of it as CSV, streamed. Admin only. */
export function auditLogRoutes(deps: { audit: AuditLog; guard: Guard }) {
  const { audit, guard } = deps;
  return new Hono<AppEnv>().get('/', async (c) => {
    await guard.admin(c);
    const query = readQuery(c, auditLogQuerySchema);
    const filter = { action: query.action, actor: query.actor, from: query.from, to: query.to };
    if (query.format !== 'csv') {
      const { items, total } = await audit.list(filter, query.limit, query.offset);
      return ok(c, { items, total, limit: query.limit, offset: query.offset });
    }
    const pages = audit.entries(filter);
    const encoder = new TextEncoder();
    let started = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!started) {
          started = true;
          // A BOM so spreadsheets read the UTF-8 (names and paths in any script) as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_COLUMNS)}`));
          return;
        }
        const next = await pages.next();
        if (next.done) {
          controller.close();
          return;
        }
        controller.enqueue(
          encoder.encode(next.value.map((entry) => csvLine(CSV_COLUMNS.map((column) => entry[column]))).join('')),
        );
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    const day = new Date().toISOString().slice(0, 10);
    return c.body(stream, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="audit-log-${day}.csv"`,
    });
  });
}
