import { z } from './zod.js';

export const BACKUP_FORMAT = 'clipnest-backup';
export const BACKUP_VERSION = 1;

export const BACKUP_MODULES = [
  'text_management',
  'file_management',
  'mount_management',
  'storage_config',
  'key_management',
  'account_management',
  'system_settings',
] as const;
export type BackupModule = (typeof BACKUP_MODULES)[number];

export const createBackupSchema = z.strictObject({
  backup_type: z.enum(['full', 'modules']).default('full'),
  selected_modules: z.array(z.enum(BACKUP_MODULES, { error: 'unknown module' })).optional(),
});
export type CreateBackupInput = z.input<typeof createBackupSchema>;

const rowSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]), {
  error: 'each row must be an object of column: string | number | null',
});

/** The file a backup downloads as. Row values are portable between SQLite and PostgreSQL. */
export const backupFileSchema = z.strictObject({
  format: z.literal(BACKUP_FORMAT, { error: `not a Clipnest backup (format must be "${BACKUP_FORMAT}")` }),
  version: z.number().int(),
  app_version: z.string(),
  schema_version: z.string(),
  created_at: z.string(),
  encryption_key_fingerprint: z.string(),
  modules: z.array(z.enum(BACKUP_MODULES, { error: 'unknown module' })).min(1, 'the backup holds no module'),
  tables: z.record(z.string(), z.strictObject({ rows: z.array(rowSchema) })),
});
export type BackupFile = z.output<typeof backupFileSchema>;

export const RESTORE_MODES = ['overwrite', 'merge'] as const;
export type RestoreMode = (typeof RESTORE_MODES)[number];

export const restoreBackupSchema = z.strictObject({
  mode: z.enum(RESTORE_MODES).default('merge'),
  /** The ENCRYPTION_KEY of the install that made the backup, when it differs from this one. */
  source_encryption_key: z.string().min(16).optional(),
  backup: z.unknown(),
});
export type RestoreBackupInput = z.input<typeof restoreBackupSchema>;

export interface BackupModuleInfo {
  name: BackupModule;
  tables: { name: string; rows: number }[];
}

export interface RestoreTablePlan {
  table: string;
  incoming: number;
  existing: number;
  /** Rows of the backup that already exist here (same primary key or unique value): skipped in merge, replaced in overwrite. */
  conflicts: number;
}

export interface RestorePreview {
  mode: RestoreMode;
  modules: BackupModule[];
  tables: RestoreTablePlan[];
  created_at: string;
  app_version: string;
  encryption_key_matches: boolean;
  warnings: string[];
}

export interface RestoreResult extends RestorePreview {
  restored: Record<string, number>;
}

/** Scheduled backups are stored under this folder of the chosen storage config, named like this. */
export const SCHEDULED_BACKUP_DIR = 'clipnest-backups';
export const SCHEDULED_BACKUP_NAME = /^clipnest-backup-scheduled-(\d{8})-(\d{6})\.json$/;

export interface BackupScheduleStatus {
  enabled: boolean;
  storage_config_id: string;
  interval_hours: number;
  keep: number;
  /** Storage configs a scheduled backup can be written to. */
  targets: { id: string; name: string }[];
  /** Files kept on the chosen target, newest first. */
  files: string[];
  last_run: { at: string; file: string | null; error: string | null } | null;
  next_run_at: string | null;
  /** Why the schedule cannot run now, if it cannot. */
  problem: string | null;
}
