// What a crash mid-upload leaves behind, swept at start and periodically:
// - local storage: temp files of writes that never finished (`.clipnest-*.tmp`, driver.sweepTemp);
// - S3 (and any driver listing its multipart uploads): unfinished multipart uploads of share objects
//   that the server started for a form or PUT upload and that no upload session owns. Backends that
//   cannot list them (s3rver) are reported as skipped, 'unsupported'.
// The spool directory of form uploads is swept by the HTTP layer (http/uploadForm.ts sweepSpoolDir).
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { UploadSessionRepository } from '../../repositories/uploadSessionRepository.js';
import type { StorageConfigRow } from '../../repositories/storageConfigRepository.js';
import { isStorageError, type StorageDriver } from '../../storage/types.js';
import { isShareObjectPath } from '../shares/fileShareRules.js';
import type { StorageConfigService } from '../storageConfigs/storageConfigService.js';

/**
 * An unowned multipart upload is left alone while a part arrived within this long (or the upload idle
 * timeout, when longer): another instance may still be streaming a slow form upload into it, and a part
 * holds at least 5 MiB.
 */
export const ORPHAN_UPLOAD_QUIET_MS = 3600_000;

export interface TempSweepReport {
  /** `<config id>:<path>` of every temp file removed. */
  tempFiles: string[];
  /** `<config id>:<path>` of every multipart upload aborted. */
  abortedUploads: string[];
  /** Configs whose multipart uploads could not be listed, with why. */
  skipped: { configId: string; reason: string }[];
}

export class TempSweepService {
  /**
   * When this process first listed each unowned upload: the quiet time counts from there at the earliest,
   * so a backend whose dates cannot be trusted (moto answers a fixed `Initiated` from 2010) or a clock
   * skew between server and storage cannot get a live upload aborted.
   */
  private readonly firstSeen = new Map<string, number>();

  constructor(
    private readonly deps: {
      storageConfigs: StorageConfigService;
      sessions: UploadSessionRepository;
      clock: Clock;
      logger: Logger;
      /** UPLOAD_IDLE_TIMEOUT: temp files untouched this long belong to no live upload. */
      idleMs: number;
    },
  ) {}

  async sweep(): Promise<TempSweepReport> {
    const report: TempSweepReport = { tempFiles: [], abortedUploads: [], skipped: [] };
    const now = this.deps.clock.now().getTime();
    for (const config of await this.deps.storageConfigs.allRows()) {
      let driver: StorageDriver;
      try {
        driver = this.deps.storageConfigs.driverOf(config);
      } catch (error) {
        report.skipped.push({ configId: config.id, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      try {
        if (driver.sweepTemp) {
          for (const path of await driver.sweepTemp(new Date(now - this.deps.idleMs))) {
            report.tempFiles.push(`${config.id}:${path}`);
          }
        }
        await this.sweepUploads(config, driver, now, report);
      } catch (error) {
        // One unreachable storage does not keep the others from being swept.
        report.skipped.push({ configId: config.id, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return report;
  }

  private async sweepUploads(config: StorageConfigRow, driver: StorageDriver, now: number, report: TempSweepReport) {
    const mp = driver.multipart;
    if (!mp?.listUploads) {
      if (driver.kind !== 'local') report.skipped.push({ configId: config.id, reason: 'unsupported' });
      return;
    }
    let uploads;
    try {
      uploads = await mp.listUploads();
    } catch (error) {
      if (!isStorageError(error, 'unsupported')) throw error;
      report.skipped.push({ configId: config.id, reason: 'unsupported' });
      return;
    }
    const quietBefore = now - Math.max(this.deps.idleMs, ORPHAN_UPLOAD_QUIET_MS);
    const owned = await this.deps.sessions.uploadIdsOf(config.id);
    const listed = new Set<string>();
    for (const upload of uploads) {
      if (owned.has(upload.uploadId) || !isShareObjectPath(upload.path)) continue;
      const key = `${config.id}:${upload.uploadId}`;
      listed.add(key);
      if (!this.firstSeen.has(key)) this.firstSeen.set(key, now);
      const last = Math.max(
        this.firstSeen.get(key)!,
        await this.lastActivity(driver, upload.path, upload.uploadId, upload.initiated),
      );
      if (last >= quietBefore) continue;
      try {
        await mp.abort(upload.path, upload.uploadId);
        this.firstSeen.delete(key);
        report.abortedUploads.push(`${config.id}:${upload.path}`);
      } catch (error) {
        this.deps.logger.error(`could not abort the orphan upload of ${upload.path} on ${config.id}`, error);
      }
    }
    for (const key of this.firstSeen.keys()) {
      if (key.startsWith(`${config.id}:`) && !listed.has(key)) this.firstSeen.delete(key);
    }
  }

  /** When the upload last received a part (its start when no part is listed); ms since the epoch. */
  private async lastActivity(driver: StorageDriver, path: string, uploadId: string, initiated?: Date) {
    let last = initiated?.getTime() ?? 0;
    try {
      for (const part of await driver.multipart!.listParts(path, uploadId)) {
        last = Math.max(last, part.lastModified?.getTime() ?? 0);
      }
    } catch (error) {
      if (!isStorageError(error, 'unsupported') && !isStorageError(error, 'not_found')) throw error;
    }
    return last;
  }
}
