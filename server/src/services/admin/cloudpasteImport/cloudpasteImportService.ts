import type { CloudpasteImportReport, CloudpasteImportRequest, SettingValues } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { isoNow, type Clock } from '../../../lib/clock.js';
import type { StorageEndpointGuard } from '../../../net/storageEndpointGuard.js';
import type { CloudpasteImportRepository } from '../../../repositories/cloudpasteImportRepository.js';
import type { SecretCipher } from '../../../security/cipher.js';
import { hashPassword } from '../../../security/secrets.js';
import { readBackup } from './backupFile.js';
import { emptyWrites, type ImportContext } from './context.js';
import { mapApiKeys } from './mapApiKeys.js';
import { mapFiles, type ObjectCheck } from './mapFiles.js';
import { mapMounts } from './mapMounts.js';
import { mapPastes } from './mapPastes.js';
import { mapSettings } from './mapSettings.js';
import { mapStorageConfigs, type LocalRootCheck } from './mapStorageConfigs.js';
import { ReportBuilder } from './report.js';

/** Tables the import reads; every other table of the backup is listed in the report as not imported. */
const READ_TABLES = new Set([
  'pastes',
  'paste_passwords',
  'files',
  'file_passwords',
  'storage_configs',
  'principal_storage_acl',
  'api_keys',
  'storage_mounts',
  'system_settings',
]);

const IGNORED_REASONS: Record<string, string> = {
  admins: 'the CloudPaste admin account is not imported: the Clipnest admin stays',
  admin_tokens: 'CloudPaste admin login tokens are not imported: log in here as the Clipnest admin',
  schema_migrations: "CloudPaste's own migration history",
  scheduled_jobs: "CloudPaste's own scheduled jobs (Clipnest runs its own cleanups)",
  scheduled_job_runs: "CloudPaste's own job history",
  tasks: "CloudPaste's background tasks (not carried over)",
  upload_sessions: 'unfinished uploads cannot be resumed here',
  metrics_cache: 'derived data, rebuilt here',
  vfs_nodes: 'CloudPaste virtual folder nodes have no counterpart',
  fs_meta: 'folder passwords and readme/header metadata have no counterpart',
};

export interface CloudpasteImportDeps {
  repo: CloudpasteImportRepository;
  cipher: SecretCipher;
  clock: Clock;
  /** Checks the folder a LOCAL root maps to (inside LOCAL_STORAGE_ROOTS, not the share storage); its real path. */
  checkLocalRoot: LocalRootCheck;
  /** The server's storage endpoint guard: an imported S3 endpoint passes it as one the API saves. */
  endpointGuard: Pick<StorageEndpointGuard, 'endpointBlocked'>;
  /** Whether a LOCAL share's object is in its mapped root (warning only). */
  objectExists: ObjectCheck;
  settings: () => Promise<SettingValues>;
  /** After a write: reload mounts, drop cached settings. */
  afterImport: () => void;
}

/**
 * Moves a CloudPaste 1.x backup in: checks the file whole, plans every row (the report), then
 * writes the plan in one transaction unless it is a dry run. Rows already imported (same CloudPaste id) are
 * skipped, so a second run creates nothing.
 */
export class CloudpasteImportService {
  constructor(private readonly deps: CloudpasteImportDeps) {}

  async run(adminId: string, request: CloudpasteImportRequest): Promise<CloudpasteImportReport> {
    const { backup, warnings } = readBackup(request.backup);
    const data = backup.data;
    const report = new ReportBuilder();
    for (const warning of warnings) report.warn(warning);
    const ctx: ImportContext = {
      adminId,
      now: isoNow(this.deps.clock),
      dryRun: request.dry_run,
      onConflict: request.on_conflict,
      cipher: this.deps.cipher,
      endpointGuard: this.deps.endpointGuard,
      lookup: this.deps.repo,
      report,
      writes: emptyWrites(),
      configs: new Map(),
      cloudpasteAdmins: new Set((data.admins ?? []).map((a) => String(a.id ?? '')).filter(Boolean)),
      hashPassword: (plain) => (request.dry_run ? Promise.resolve('(dry run)') : hashPassword(plain)),
    };
    await mapStorageConfigs(ctx, data.storage_configs, request.local_roots, this.deps.checkLocalRoot);
    await mapApiKeys(ctx, data.api_keys, data.principal_storage_acl);
    await mapPastes(ctx, data.pastes, data.paste_passwords);
    await mapFiles(ctx, data.files, data.file_passwords, this.deps.objectExists);
    await mapMounts(ctx, data.storage_mounts);
    mapSettings(ctx, data.system_settings, await this.deps.settings());
    for (const [table, rows] of Object.entries(data)) {
      if (READ_TABLES.has(table)) continue;
      if (rows.length === 0) continue;
      report.ignore(table, rows.length, IGNORED_REASONS[table] ?? 'not known to this importer');
    }
    if ((data.principal_storage_acl ?? []).length > 0) {
      report.ignore(
        'principal_storage_acl',
        data.principal_storage_acl?.length ?? 0,
        'per-key storage lists have no counterpart (see the warnings)',
      );
    }
    if (!request.dry_run) await this.write(ctx);
    return report.build(backup.metadata, request.dry_run);
  }

  private async write(ctx: ImportContext): Promise<void> {
    const w = ctx.writes;
    const count =
      w.storage_configs.length +
      w.api_keys.length +
      w.pastes.length +
      w.files.length +
      w.mounts.length +
      w.settings.length;
    if (count === 0) return;
    try {
      await this.deps.repo.write(w);
    } catch (error) {
      if (error instanceof AppError) throw error;
      const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
      throw AppError.conflict(
        `the import could not be written, nothing was changed (${reason}); run it again to see what changed meanwhile`,
      );
    }
    this.deps.afterImport();
  }
}
