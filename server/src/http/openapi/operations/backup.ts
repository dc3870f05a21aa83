import { backupFileSchema, cloudpasteImportSchema, createBackupSchema, restoreBackupSchema } from '@clipnest/contract';
import {
  backupModuleInfoSchema,
  backupScheduleStatusSchema,
  cloudpasteImportReportSchema,
  dashboardStatsSchema,
  restorePreviewSchema,
  restoreResultSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

/** server/src/routes/backupRoutes.ts, cloudpasteImportRoutes.ts and dashboardRoutes.ts */
export const backupOperations: Operations = {
  'GET /api/admin/backup/modules': {
    summary: 'Backup modules and their tables',
    tag: 'Backup',
    access: 'admin',
    answer: { data: z.array(backupModuleInfoSchema) },
  },
  'POST /api/admin/backup/create': {
    summary: 'Download a backup',
    description: 'The answer is the backup file itself (not the envelope), as an attachment.',
    tag: 'Backup',
    access: 'admin',
    body: { json: createBackupSchema },
    answer: {
      json: backupFileSchema,
      description: 'The backup file.',
      headers: { 'Content-Disposition': 'attachment; filename="clipnest-backup-….json"' },
    },
  },
  'GET /api/admin/backup/schedule': {
    summary: 'Scheduled backups: settings, kept files, last and next run',
    tag: 'Backup',
    access: 'admin',
    answer: { data: backupScheduleStatusSchema },
  },
  'POST /api/admin/backup/schedule/run': {
    summary: 'Run the scheduled backup now',
    tag: 'Backup',
    access: 'admin',
    answer: { data: backupScheduleStatusSchema },
    errors: ['CONFLICT'],
  },
  'POST /api/admin/backup/preview': {
    summary: 'What restoring a backup would do',
    tag: 'Backup',
    access: 'admin',
    body: { json: restoreBackupSchema },
    answer: { data: restorePreviewSchema },
  },
  'POST /api/admin/backup/restore': {
    summary: 'Restore a backup',
    tag: 'Backup',
    access: 'admin',
    body: { json: restoreBackupSchema },
    answer: { data: restoreResultSchema },
  },
  'POST /api/admin/import/cloudpaste': {
    summary: 'Import a CloudPaste backup',
    description: 'Up to 110 MB of JSON. `dry_run: true` reports what would be imported and writes nothing.',
    tag: 'Backup',
    access: 'admin',
    body: { json: cloudpasteImportSchema },
    answer: { data: cloudpasteImportReportSchema },
  },
  'GET /api/admin/dashboard/stats': {
    summary: 'Dashboard counts, storage use, daily activity',
    tag: 'Dashboard',
    access: 'admin',
    query: z.object({ fresh: z.enum(['0', '1', 'true', 'false']).optional() }),
    answer: { data: dashboardStatsSchema },
  },
};
