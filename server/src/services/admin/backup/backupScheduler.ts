import { BACKUP_MODULES, SCHEDULED_BACKUP_NAME, type BackupScheduleStatus } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { Logger } from '../../../lib/logger.js';
import type { BackupService } from './backupService.js';
import type { SettingsService } from '../settingsService.js';

/** A place scheduled backups are written to: a folder of one storage config. */
export interface BackupTarget {
  /** File names in the backup folder. */
  list(): Promise<string[]>;
  write(name: string, body: string): Promise<void>;
  remove(name: string): Promise<void>;
}

/** Maps storage configs to backup targets; the storage feature provides the real one. */
export interface BackupTargets {
  available(): Promise<{ id: string; name: string }[]>;
  open(storageConfigId: string): Promise<BackupTarget | null>;
}

/** Until storage configs exist in this install there is nowhere to write. */
export const noBackupTargets: BackupTargets = {
  available: async () => [],
  open: async () => null,
};

export interface BackupSchedulerDeps {
  backups: BackupService;
  settings: SettingsService;
  targets: BackupTargets;
  clock: Clock;
  logger: Logger;
  /** Several instances: runs fn on one instance at a time, undefined when another holds it (`Cluster.exclusive`). */
  exclusive?: <T>(name: string, fn: () => Promise<T>) => Promise<T | undefined>;
}

function stampOf(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** The time in a scheduled backup's name, or null for other files. */
export function scheduledBackupTime(name: string): Date | null {
  const match = SCHEDULED_BACKUP_NAME.exec(name);
  if (!match) return null;
  const [d, t] = [match[1]!, match[2]!];
  const iso = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Writes a full backup to the chosen storage config every N hours and keeps the newest `keep` files.
 * The time of the last run is read from the file names on the target, so restarts and several
 * instances agree on when the next one is due (two instances may both write in the same minute;
 * pruning keeps the count right).
 */
export class BackupScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string> | undefined;
  private lastRun: BackupScheduleStatus['last_run'] = null;

  constructor(private readonly deps: BackupSchedulerDeps) {}

  start(everyMs = 5 * 60_000): void {
    this.stop();
    this.timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.deps.logger.error('scheduled backup failed', error));
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async config() {
    const v = await this.deps.settings.values();
    return {
      enabled: v.backup_schedule_enabled,
      storageConfigId: v.backup_schedule_storage_config_id,
      intervalHours: v.backup_schedule_interval_hours,
      keep: v.backup_schedule_keep,
    };
  }

  private async scheduledFiles(target: BackupTarget): Promise<string[]> {
    return (await target.list())
      .filter((name) => scheduledBackupTime(name) !== null)
      .sort()
      .reverse();
  }

  async status(): Promise<BackupScheduleStatus> {
    const config = await this.config();
    const targets = await this.deps.targets.available();
    let problem: string | null = null;
    let files: string[] = [];
    let next: Date | null = null;
    const target = config.storageConfigId ? await this.deps.targets.open(config.storageConfigId) : null;
    if (!config.storageConfigId) problem = 'choose a storage config for scheduled backups';
    else if (!target) problem = `the storage config "${config.storageConfigId}" is not available`;
    if (target) {
      try {
        files = await this.scheduledFiles(target);
      } catch (error) {
        problem = `cannot list the backup folder: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    if (config.enabled && !problem) {
      const newest = files[0] ? scheduledBackupTime(files[0]) : null;
      next = newest ? new Date(newest.getTime() + config.intervalHours * 3600_000) : this.deps.clock.now();
    }
    return {
      enabled: config.enabled,
      storage_config_id: config.storageConfigId,
      interval_hours: config.intervalHours,
      keep: config.keep,
      targets,
      files,
      last_run: this.lastRun,
      next_run_at: next ? next.toISOString() : null,
      problem,
    };
  }

  /**
   * Runs when enabled and due; returns the file written, if any. Under the cluster's lock, so of several
   * instances one writes and the others, coming after, see its file and find nothing due.
   */
  async tick(): Promise<string | null> {
    const { exclusive } = this.deps;
    if (!exclusive) return this.tickHere();
    return (await exclusive('scheduled-backup', () => this.tickHere())) ?? null;
  }

  private async tickHere(): Promise<string | null> {
    const config = await this.config();
    if (!config.enabled || !config.storageConfigId) return null;
    const target = await this.deps.targets.open(config.storageConfigId);
    if (!target) return null;
    const newest = (await this.scheduledFiles(target))[0];
    const last = newest ? scheduledBackupTime(newest) : null;
    const now = this.deps.clock.now();
    if (last && now.getTime() - last.getTime() < config.intervalHours * 3600_000) return null;
    return this.runNow();
  }

  /** Writes one full backup now and prunes old ones. One run at a time. */
  runNow(): Promise<string> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<string> {
    const config = await this.config();
    const at = this.deps.clock.now();
    try {
      if (!config.storageConfigId) throw AppError.validation('choose a storage config for scheduled backups first');
      const target = await this.deps.targets.open(config.storageConfigId);
      if (!target) throw AppError.validation(`the storage config "${config.storageConfigId}" is not available`);
      const file = await this.deps.backups.create(BACKUP_MODULES);
      const name = `clipnest-backup-scheduled-${stampOf(at)}.json`;
      await target.write(name, JSON.stringify(file));
      const files = await this.scheduledFiles(target);
      for (const old of files.slice(config.keep)) await target.remove(old);
      this.lastRun = { at: at.toISOString(), file: name, error: null };
      return name;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.lastRun = { at: at.toISOString(), file: null, error: message };
      throw error instanceof AppError ? error : new AppError('INTERNAL', `scheduled backup failed: ${message}`);
    }
  }
}
