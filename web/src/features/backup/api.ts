import type {
  BackupFile,
  BackupScheduleStatus,
  BackupModule,
  BackupModuleInfo,
  CloudpasteConflictMode,
  CloudpasteImportReport,
  RestoreMode,
  RestorePreview,
  RestoreResult,
} from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const BACKUP_MODULES_QUERY_KEY = ['admin', 'backup', 'modules'] as const;
const LONG_TIMEOUT_MS = 300_000;

export function useBackupModules() {
  return useQuery({
    queryKey: BACKUP_MODULES_QUERY_KEY,
    queryFn: ({ signal }) => api.get<BackupModuleInfo[]>('/admin/backup/modules', { signal }),
    select: (modules) => (Array.isArray(modules) ? modules : []),
  });
}

export function backupFileName(file: Pick<BackupFile, 'created_at'>, full: boolean): string {
  const stamp = file.created_at.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `clipnest-backup-${full ? 'full' : 'modules'}-${stamp}.json`;
}

/** Asks the server for a backup and saves it as a file. */
export async function downloadBackup(modules: BackupModule[] | 'full'): Promise<string> {
  const full = modules === 'full';
  const file = await api.post<BackupFile>(
    '/admin/backup/create',
    full ? { backup_type: 'full' } : { backup_type: 'modules', selected_modules: modules },
    { timeoutMs: LONG_TIMEOUT_MS },
  );
  const name = backupFileName(file, full);
  const url = URL.createObjectURL(new Blob([JSON.stringify(file)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** The request body, built around the file's own text so a large backup is not serialised twice. */
function restoreBody(text: string, mode: RestoreMode, sourceKey: string): string {
  const key = sourceKey.trim() ? `,"source_encryption_key":${JSON.stringify(sourceKey.trim())}` : '';
  return `{"mode":${JSON.stringify(mode)}${key},"backup":${text}}`;
}

export function previewRestore(text: string, mode: RestoreMode, sourceKey: string) {
  return api.post<RestorePreview>('/admin/backup/preview', restoreBody(text, mode, sourceKey), {
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: LONG_TIMEOUT_MS,
  });
}

export function runRestore(text: string, mode: RestoreMode, sourceKey: string) {
  return api.post<RestoreResult>('/admin/backup/restore', restoreBody(text, mode, sourceKey), {
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: LONG_TIMEOUT_MS,
  });
}

export const BACKUP_SCHEDULE_QUERY_KEY = ['admin', 'backup', 'schedule'] as const;

export function useBackupSchedule() {
  return useQuery({
    queryKey: BACKUP_SCHEDULE_QUERY_KEY,
    queryFn: ({ signal }) => api.get<BackupScheduleStatus>('/admin/backup/schedule', { signal }),
  });
}

export function runScheduledBackup() {
  return api.post<BackupScheduleStatus>('/admin/backup/schedule/run', undefined, { timeoutMs: LONG_TIMEOUT_MS });
}

/** POST /api/admin/import/cloudpaste with the backup file's text. */
export function importCloudpaste(
  text: string,
  options: { dryRun: boolean; localRoots: Record<string, string>; onConflict: CloudpasteConflictMode },
) {
  const fields = {
    dry_run: options.dryRun,
    local_roots: options.localRoots,
    on_conflict: options.onConflict,
  };
  let whole = true;
  try {
    JSON.parse(text);
  } catch {
    whole = false;
  }
  // A whole JSON file goes in as it is (no escaping, so a 100 MB backup stays ~100 MB); anything else goes
  // as a string, and the server says what is wrong with it (e.g. truncated).
  const body = whole
    ? `${JSON.stringify(fields).slice(0, -1)},"backup":${text}}`
    : JSON.stringify({ ...fields, backup: text });
  return api.post<CloudpasteImportReport>('/admin/import/cloudpaste', body, {
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: LONG_TIMEOUT_MS,
  });
}
