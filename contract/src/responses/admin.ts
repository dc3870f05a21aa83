import {
  BACKUP_MODULES,
  RESTORE_MODES,
  type BackupModuleInfo,
  type BackupScheduleStatus,
  type RestorePreview,
  type RestoreResult,
} from '../backup.js';
import { CLOUDPASTE_IMPORT_KINDS, type CloudpasteImportReport } from '../cloudpasteImport.js';
import { DASHBOARD_TABLES, type DashboardStats } from '../dashboard.js';
import type { SharexUploader } from '../integrations.js';
import type { LoginFlowApproval, LoginFlowView } from '../loginFlows.js';
import { WEBDAV_CHECK_PROBLEMS, type WebdavCheckResult, type WebdavInfo } from '../webdav.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

const table = z.enum(DASHBOARD_TABLES);

export const dashboardStatsSchema = shapeOf<DashboardStats>()(
  z
    .object({
      counts: z.record(table, count),
      available: z.record(table, z.boolean()),
      storage: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          storage_type: z.string(),
          is_default: z.boolean(),
          used_bytes: count,
          file_count: count,
          total_capacity: count.nullable(),
          usage_percent: z.number().nullable(),
        }),
      ),
      daily: z.array(
        z.object({
          day: z.iso.date(),
          paste_views: count,
          file_views: count,
          file_downloads: count,
          pastes_created: count,
          files_created: count,
        }),
      ),
      recent: z.array(
        z.object({
          type: z.enum(['paste', 'file']),
          id: z.string(),
          slug: z.string(),
          filename: z.string().nullable(),
          size: count.nullable(),
          created_by: z.string().nullable(),
          created_by_name: z.string().nullable(),
          created_at: isoTime,
        }),
      ),
      shares: z.object({
        folder_shares: count,
        upload_requests: count,
        received: z.array(
          z.object({
            id: z.string(),
            request_id: z.string(),
            request_slug: z.string(),
            name: z.string(),
            size: count,
            path: z.string(),
            created_at: isoTime,
          }),
        ),
      }),
      generated_at: isoTime,
    })
    .meta({ id: 'DashboardStats' }),
);

const backupModule = z.enum(BACKUP_MODULES);

export const backupModuleInfoSchema = shapeOf<BackupModuleInfo>()(
  z.object({ name: backupModule, tables: z.array(z.object({ name: z.string(), rows: count })) }),
);

const restorePreviewShape = {
  mode: z.enum(RESTORE_MODES),
  modules: z.array(backupModule),
  tables: z.array(z.object({ table: z.string(), incoming: count, existing: count, conflicts: count })),
  created_at: z.string(),
  app_version: z.string(),
  encryption_key_matches: z.boolean(),
  warnings: z.array(z.string()),
};

export const restorePreviewSchema = shapeOf<RestorePreview>()(
  z.object(restorePreviewShape).meta({ id: 'RestorePreview' }),
);
export const restoreResultSchema = shapeOf<RestoreResult>()(
  z.object({ ...restorePreviewShape, restored: z.record(z.string(), count) }),
);

export const backupScheduleStatusSchema = shapeOf<BackupScheduleStatus>()(
  z
    .object({
      enabled: z.boolean(),
      storage_config_id: z.string(),
      interval_hours: count,
      keep: count,
      targets: z.array(z.object({ id: z.string(), name: z.string() })),
      files: z.array(z.string()),
      last_run: z.object({ at: isoTime, file: z.string().nullable(), error: z.string().nullable() }).nullable(),
      next_run_at: isoTime.nullable(),
      problem: z.string().nullable(),
    })
    .meta({ id: 'BackupScheduleStatus' }),
);

const importItem = z.object({ id: z.string(), name: z.string(), reason: z.string().optional() });

export const cloudpasteImportReportSchema = shapeOf<CloudpasteImportReport>()(
  z
    .object({
      dry_run: z.boolean(),
      source: z.object({
        version: z.string(),
        schema_version: z.string(),
        backup_type: z.string(),
        timestamp: z.string(),
        total_records: count,
      }),
      kinds: z.record(
        z.enum(CLOUDPASTE_IMPORT_KINDS),
        z.object({
          total: count,
          created: count,
          created_items: z.array(importItem),
          skipped: z.array(importItem),
          not_supported: z.array(importItem),
        }),
      ),
      local_roots: z.array(
        z.object({ root_path: z.string(), configs: z.array(z.string()), mapped_to: z.string().nullable() }),
      ),
      ignored_tables: z.array(z.object({ table: z.string(), rows: count, reason: z.string() })),
      warnings: z.array(z.string()),
    })
    .meta({ id: 'CloudpasteImportReport' }),
);

export const webdavInfoSchema = shapeOf<WebdavInfo>()(
  z.object({ public_url: z.string().nullable(), admin_username: z.string() }),
);

export const webdavCheckResultSchema = shapeOf<WebdavCheckResult>()(
  z
    .object({
      problem: z.enum(WEBDAV_CHECK_PROBLEMS).optional(),
      identity: z
        .object({
          type: z.enum(['admin', 'apikey']),
          name: z.string(),
          basic_path: z.string(),
          can_write: z.boolean(),
        })
        .optional(),
      entries: z.array(z.object({ name: z.string(), href: z.string(), is_dir: z.boolean() })),
      empty_reason: z.enum(['no_mounts', 'none_in_base_path']).optional(),
    })
    .meta({ id: 'WebdavCheckResult' }),
);

export const sharexUploaderSchema = shapeOf<SharexUploader>()(
  z.object({
    Version: z.string(),
    Name: z.string(),
    DestinationType: z.string(),
    RequestMethod: z.literal('POST'),
    RequestURL: z.string(),
    Headers: z.record(z.string(), z.string()),
    Body: z.enum(['MultipartFormData', 'JSON']),
    FileFormName: z.string().optional(),
    Data: z.string().optional(),
    URL: z.string(),
    ErrorMessage: z.string(),
  }),
);

export const loginFlowViewSchema = shapeOf<LoginFlowView>()(
  z.object({
    client_name: z.string(),
    user_agent: z.string(),
    address: z.string(),
    created_at: isoTime,
    expires_at: isoTime,
  }),
);

export const loginFlowApprovalSchema = shapeOf<LoginFlowApproval>()(z.object({ key_id: z.string(), name: z.string() }));
