import { mkdirSync } from 'node:fs';
import { sendfile, sendfileLoadError } from '@clipnest/native';
import { createApp } from './app.js';
import { withSendfile, type Fetch } from './http/sendfileEdge.js';
import { answerAtTurnEnd } from './http/answerAtTurnEnd.js';
import type { HttpTimeouts } from './http/timeouts.js';
import { startBackgroundJobs } from './backgroundJobs.js';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle, type OpenOptions } from './db/database.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createLogger, type Logger } from './lib/logger.js';
import { resolveEncryptionKey } from './security/encryptionKey.js';
import type { TempSweepReport } from './services/admin/tempSweepService.js';
import { Cluster } from './db/cluster.js';
import { HttpMetrics } from './http/observability.js';
import { buildServices, type AppServicesBuilt } from './buildServices.js';

export type { AppServicesBuilt };

/** The HTTP timeouts of a config (applied to the node server with http/timeouts.ts). */
export function httpTimeoutsOf(config: Config): HttpTimeouts {
  return {
    uploadIdleMs: config.uploadIdleTimeoutMs,
    downloadIdleMs: config.downloadIdleTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
  };
}

export interface BuiltServer {
  app: ReturnType<typeof createApp>;
  /** What to serve: the app behind the sendfile edge (local downloads zero-copy where it can). */
  fetch: Fetch;
  database: DatabaseHandle;
  services: ReturnType<typeof buildServices>;
  /** Set when this start created the first admin. */
  createdAdmin: { username: string; password: string; generated: boolean } | null;
  generatedEncryptionKey: boolean;
  logger: Logger;
  /** Prometheus metrics, kept only when METRICS_TOKEN or METRICS_PORT asks for them (see main.ts). */
  metrics?: HttpMetrics;
  /** Sweeps what crashed uploads left (storage temp files, orphan multipart uploads, spooled parts). */
  sweepTemp(): Promise<TempSweepReport & { spooled: string[] }>;
  close(): Promise<void>;
}

/** config → data dir → key → database → migrations → services → first admin → app. Shared by main and tests. */
export async function buildServer(
  config: Config,
  options: { clock?: Clock; database?: OpenOptions; logger?: Logger } = {},
): Promise<BuiltServer> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });
  const { key, generated } = resolveEncryptionKey(config.dataDir, config.encryptionKey);
  const database = openDatabase(config.databaseUrl, {
    onConnectionError: (error) =>
      logger.error('database: an idle connection failed; the next query opens a new one', error.message),
    ...options.database,
  });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const cluster = new Cluster({ database, url: config.databaseUrl, logger });
  await cluster
    .start()
    .catch((error: unknown) =>
      logger.error('cluster: LISTEN failed; caches of other instances refresh by their TTL only', error),
    );
  const services = buildServices(database, config, key, clock, logger, cluster);
  const createdAdmin = await services.auth.ensureAdmin(config.adminUsername, config.adminPassword);
  // A fresh install shares files with no S3 at all: the built-in local storage is the default.
  await services.storageConfigs.ensureBuiltin();
  // Recorded only when someone can read them: no per-request cost otherwise.
  const metrics = config.metricsToken !== undefined || config.metricsPort !== undefined ? new HttpMetrics() : undefined;
  metrics?.gauge('clipnest_tasks', 'Tasks in the database by status (all instances)', ['status'], async () =>
    Object.entries(await services.tasks.countsByStatus()).map(([status, n]) => [{ status }, n]),
  );
  metrics?.gauge('clipnest_tasks_running_here', 'Tasks this instance runs now', [], async () => [
    [{}, services.tasks.runningHere],
  ]);
  const app = createApp(services, {
    logger,
    webDistDir: config.webDistDir,
    trustProxy: config.trustProxy,
    proxyHops: config.proxyHops,
    metrics,
    metricsToken: config.metricsToken,
  });
  const fetch = withSendfile(answerAtTurnEnd(app.fetch), {
    binding: sendfile,
    enabled: config.localSendfile,
    logger,
    stallMs: config.downloadIdleTimeoutMs,
  });
  logger.debug(
    !config.localSendfile
      ? 'local downloads are streamed (LOCAL_SENDFILE=false)'
      : sendfile
        ? 'local downloads use sendfile'
        : `local downloads are streamed: the sendfile addon is not available (${sendfileLoadError ?? 'unknown'})`,
  );

  const jobs = startBackgroundJobs({ services, config, cluster, clock, logger });

  return {
    app,
    fetch,
    database,
    services,
    createdAdmin,
    generatedEncryptionKey: generated,
    logger,
    metrics,
    sweepTemp: jobs.sweepTemp,
    close: async () => {
      await jobs.stop();
      await services.stats.flush();
      await services.pastes.flushViews();
      services.urlUploads.close();
      await services.tasks.close();
      await services.folderEtags.flush();
      services.chunkedUploads.close();
      await services.search.stop();
      // After the tasks stopped (their last changes are in), before the database closes.
      await services.audit.close();
      await cluster.close();
      await services.storageRegistry.closeAll();
      await database.close();
    },
  };
}
