import { auditLogQuerySchema } from '@clipnest/contract';
import { auditLogPageSchema } from '@clipnest/contract/responses';
import type { Operations } from '../operation.js';

/** server/src/routes/auditLogRoutes.ts */
export const auditLogOperations: Operations = {
  'GET /api/admin/audit-log': {
    summary: 'Read the audit log',
    description:
      'A page of entries, newest first, filtered by `action` (or its family: `paste` matches `paste.*`), `actor` ' +
      '(or its beginning) and a time window. `format=csv` answers every matching entry as CSV, streamed.',
    tag: 'Audit log',
    access: 'admin',
    query: auditLogQuerySchema,
    answer: { data: auditLogPageSchema, also: { 'text/csv': 'With `format=csv`: every matching entry.' } },
  },
};
