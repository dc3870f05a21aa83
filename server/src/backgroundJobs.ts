// The server's background work: periodic sweeps (once per period across instances), the backup schedule, the
// search crawl, task claiming, the temp sweep and the resting collector (lib/restingCollector.ts). `stop()` ends
// them, waiting for a sweep under way.
import type { Config } from './config.js';
import type { Cluster } from './db/cluster.js';
import { sweepSpoolDir, uploadSpoolDir } from './http/uploadForm.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './lib/logger.js';
import { startRestingCollector } from './lib/restingCollector.js';
import type { AppServicesBuilt } from './server.js';

export function startBackgroundJobs(deps: {
  services: AppServicesBuilt;
  config: Config;
  cluster: Cluster;
  clock: Clock;
  logger: Logger;
}) {
  const { services, config, cluster, clock, logger } = deps;
  // Periodic jobs run once per period across instances (Cluster.runDue: advisory lock + job_runs on PostgreSQL).
  const periodic = (name: string, everyMs: number, job: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      // A little under the period: timers of two instances drift, and the one that comes second must skip.
      cluster
        .runDue(name, everyMs * 0.9, clock.now(), async () => void (await job()))
        .catch((error: unknown) => logger.error(`${name} failed`, error));
    }, everyMs);
    timer.unref();
    return timer;
  };
  const sweep = periodic('token-sweep', 3600_000, async () => {
    await services.auth.sweepExpiredTokens();
    await services.passkeys.sweep();
    await services.loginFlows.sweep();
    await services.secretAttempts.sweep();
  });
  // Entries older than the retention setting (audit_log_retention_days; 0 keeps them).
  const auditSweep = periodic('audit-sweep', 3600_000, () => services.audit.sweep());
  const pasteSweep = periodic('paste-sweep', config.pasteSweepIntervalMs, () => services.pastes.sweepExpired());
  services.backupScheduler.start();
  services.search.start();
  // Direct uploads left unfinished for 24 h: abort the multipart upload / drop the object.
  const uploadSweep = periodic('upload-sweep', 3600_000, () => services.directUploads.sweep());
  // Poll for tasks to claim often enough that a dead instance's task moves within about one lease.
  services.tasks.startClaiming(Math.min(5000, Math.max(250, config.taskLeaseMs / 2)));
  const sweepTemp = async () => {
    const olderThan = new Date(clock.now().getTime() - config.uploadIdleTimeoutMs);
    const spooled = await sweepSpoolDir(uploadSpoolDir(config.dataDir), olderThan);
    // The spool folder is this instance's own; the storages' temp files and uploads are shared: one sweeper.
    const report = (await cluster.exclusive('temp-sweep', () => services.tempSweep.sweep(), { waitHere: true })) ?? {
      tempFiles: [],
      abortedUploads: [],
      skipped: [],
    };
    const removed = spooled.length + report.tempFiles.length + report.abortedUploads.length;
    if (removed > 0) {
      logger.info(
        `temp sweep: removed ${spooled.length + report.tempFiles.length} temp files, aborted ${report.abortedUploads.length} unfinished uploads`,
      );
    }
    for (const skip of report.skipped)
      logger.debug(`temp sweep: multipart uploads of ${skip.configId} skipped (${skip.reason})`);
    return { ...report, spooled };
  };
  let sweeping: Promise<void> | undefined;
  const runTempSweep = () => {
    sweeping ??= sweepTemp()
      .then(() => undefined)
      .catch((error: unknown) => logger.error('temp sweep failed', error))
      .finally(() => {
        sweeping = undefined;
      });
  };
  // At start (what a killed process left) and then about once per idle timeout.
  runTempSweep();
  const tempSweep = setInterval(runTempSweep, Math.min(Math.max(config.uploadIdleTimeoutMs, 1000), 600_000));
  tempSweep.unref();
  const restingCollector = startRestingCollector();

  return {
    sweepTemp,
    async stop() {
      clearInterval(sweep);
      clearInterval(tempSweep);
      await sweeping;
      clearInterval(pasteSweep);
      clearInterval(auditSweep);
      services.backupScheduler.stop();
      clearInterval(uploadSweep);
      restingCollector?.stop();
    },
  };
}
