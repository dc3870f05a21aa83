import { DavRepository } from './repositories/davRepository.js';
import { DavAuth } from './services/webdav/davAuth.js';
import { FolderEtags } from './services/webdav/folderEtags.js';
import { LoginFlowService } from './services/loginFlowService.js';
import { LoginFlowRepository } from './repositories/loginFlowRepository.js';
import { ChunkedUploads } from './services/webdav/chunkedUploads.js';
import { DavLocks } from './services/webdav/davLocks.js';
import { WebdavService } from './services/webdav/webdavService.js';
import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sendfile, sendfileLoadError } from '@clipnest/native';
import { Permission, hasPermission } from '@clipnest/contract';
import { createApp } from './app.js';
import { withSendfile, type Fetch } from './http/sendfileEdge.js';
import { answerAtTurnEnd } from './http/answerAtTurnEnd.js';
import type { HttpTimeouts } from './http/timeouts.js';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, pingDatabase, type DatabaseHandle, type OpenOptions } from './db/database.js';
import { Guard } from './http/auth.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createLogger, type Logger } from './lib/logger.js';
import { AdminRepository } from './repositories/adminRepository.js';
import { AdminTokenRepository } from './repositories/adminTokenRepository.js';
import { ApiKeyRepository } from './repositories/apiKeyRepository.js';
import { SettingsRepository } from './repositories/settingsRepository.js';
import { BackupRepository } from './repositories/backupRepository.js';
import { BackupService } from './services/backupService.js';
import { BackupScheduler } from './services/backupScheduler.js';
import { storageBackupTargets } from './services/storageBackupTargets.js';
import { CacheRegistry } from './services/cacheRegistry.js';
import { StatsRepository } from './repositories/statsRepository.js';
import { PasteRepository } from './repositories/pasteRepository.js';
import { PasteService } from './services/pasteService.js';
import { StatsService } from './services/statsService.js';
import { PendingViews } from './services/pendingViews.js';
import { DashboardRepository } from './repositories/dashboardRepository.js';
import { DashboardService } from './services/dashboardService.js';
import { migrations } from './db/migrations/index.js';
import { SecretCipher } from './security/cipher.js';
import { resolveEncryptionKey } from './security/encryptionKey.js';
import { ApiKeyService } from './services/apiKeyService.js';
import { basePathState } from './services/treeFolders.js';
import { AuthService } from './services/authService.js';
import { TwoFactorService } from './services/twoFactorService.js';
import { PasskeyService } from './services/passkeyService.js';
import { SecondFactorRepository } from './repositories/secondFactorRepository.js';
import { PasskeyRepository } from './repositories/passkeyRepository.js';
import { noAuthEvents, type AuthEventSink } from './services/authEvents.js';
import { SecretAttemptLimiter } from './services/secretAttemptLimiter.js';
import { SecretAttemptRepository } from './repositories/secretAttemptRepository.js';
import { LinkPreviewService } from './services/linkPreviewService.js';
import { SettingsService } from './services/settingsService.js';
import { SystemService } from './services/systemService.js';
import { FileRepository } from './repositories/fileRepository.js';
import { StorageConfigRepository } from './repositories/storageConfigRepository.js';
import { contentDisposition } from './http/contentDisposition.js';
import { FileServingService } from './services/fileServingService.js';
import { FileShareService } from './services/fileShareService.js';
import { FileUploadService } from './services/fileUploadService.js';
import { StorageConfigService } from './services/storageConfigService.js';
import { LocalRoots } from './services/localRoots.js';
import { CloudpasteImportRepository } from './repositories/cloudpasteImportRepository.js';
import { CloudpasteImportService } from './services/cloudpasteImport/cloudpasteImportService.js';
import { localObjectCheck, localRootCheck } from './services/cloudpasteImport/localStorage.js';
import { StorageRegistry } from './services/storageRegistry.js';
import { StorageSpaceService } from './services/storageSpace.js';
import { StorageEndpointGuard } from './net/storageEndpointGuard.js';
import { createDriver } from './storage/index.js';
import { SHARE_AREA } from './storage/paths.js';
import { SsrfGuard } from './net/ssrfGuard.js';
import { UploadSessionRepository } from './repositories/uploadSessionRepository.js';
import { DirectUploadService } from './services/directUploadService.js';
import { MultipartUploadService } from './services/multipartUploadService.js';
import { UrlUploadService } from './services/urlUploadService.js';
import { MountRepository } from './repositories/mountRepository.js';
import { Vfs } from './vfs/vfs.js';
import { MountService } from './services/mountService.js';
import { FsService } from './services/fsService.js';
import { FsUploadService } from './services/fsUploadService.js';
import { toMountRecord } from './vfs/mountTable.js';
import { TempSweepService, type TempSweepReport } from './services/tempSweepService.js';
import { sweepSpoolDir } from './http/uploadForm.js';
import { TaskRepository } from './repositories/taskRepository.js';
import { FsIndexRepository } from './repositories/fsIndexRepository.js';
import { TaskService } from './services/tasks/taskService.js';
import { CopyService } from './services/tasks/copyService.js';
import { ZipService } from './services/zip/zipService.js';
import { BundleFileRepository } from './repositories/bundleFileRepository.js';
import { FolderShareRepository } from './repositories/folderShareRepository.js';
import { BundleContent } from './services/bundleContent.js';
import { UploadRequestRepository } from './repositories/uploadRequestRepository.js';
import { UploadRequestService } from './services/uploadRequestService.js';
import { FolderShareService } from './services/folderShareService.js';
import { SearchService } from './services/search/searchService.js';
import { Cluster } from './db/cluster.js';
import { HttpMetrics } from './http/observability.js';
import { StorageUsage } from './services/storageUsage.js';
import { mountWriteLimit } from './services/writeLimits.js';
import { ArchiveService } from './services/archives/archiveService.js';
import { ThumbnailService } from './services/thumbnailService.js';
import { AuditLogRepository } from './repositories/auditLogRepository.js';
import { AuditLog } from './services/audit/auditLog.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The HTTP timeouts of a config (applied to the node server with http/timeouts.ts). */
export function httpTimeoutsOf(config: Config): HttpTimeouts {
  return {
    uploadIdleMs: config.uploadIdleTimeoutMs,
    downloadIdleMs: config.downloadIdleTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
  };
}

/** Form uploads spool file parts here (DATA_DIR/tmp/uploads); the temp sweep clears what a crash left. */
export function uploadSpoolDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'uploads');
}

/** Expired and used-up pastes are deleted this often (they already answer 410 before that). */
const PASTE_SWEEP_INTERVAL_MS = 10 * 60_000;

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

function buildServices(
  database: DatabaseHandle,
  config: Config,
  encryptionKey: string,
  clock: Clock,
  logger: Logger,
  cluster: Cluster,
) {
  const cipher = new SecretCipher(encryptionKey);
  const { db } = database;
  // One limiter for every secret check; its counters live in the database, shared by every instance.
  const secretAttempts = new SecretAttemptLimiter({ store: new SecretAttemptRepository(db), clock, logger });
  // Sign-ins, failed sign-ins, second-factor changes and ended sessions: the audit log attaches here.
  const authEvents: AuthEventSink = noAuthEvents;
  const auth = new AuthService({
    admins: new AdminRepository(db),
    tokens: new AdminTokenRepository(db),
    limiter: secretAttempts,
    clock,
    tokenTtlMs: config.adminTokenTtlMs,
    events: authEvents,
  });
  const confirmPassword = (adminId: string, password: string, client: string) =>
    auth.confirmPassword(adminId, password, client);
  // `settings` is made below; the title is first asked by a request.
  const siteTitle = async () => (await settings.get('site_title')) || 'Clipnest';
  const passkeys = new PasskeyService({
    repo: new PasskeyRepository(db),
    clock,
    limiter: secretAttempts,
    rpName: siteTitle,
    confirmPassword,
    events: authEvents,
    logger,
  });
  const twoFactor = new TwoFactorService({
    repo: new SecondFactorRepository(db),
    cipher,
    clock,
    limiter: secretAttempts,
    issuer: siteTitle,
    confirmPassword,
    passkeyCount: (adminId) => passkeys.count(adminId),
    events: authEvents,
  });
  auth.attachSecondFactors(twoFactor, passkeys);
  const apiKeyRepository = new ApiKeyRepository(db);
  const apiKeys = new ApiKeyService({
    keys: apiKeyRepository,
    cipher,
    clock,
    limiter: secretAttempts,
    // `vfs` is made below; this runs only on a request, after it exists.
    basePathState: (path) => basePathState(vfs, path),
  });
  // WebDAV locks: kept in the database; writes outside WebDAV (fs API, tasks) honour them through the Vfs guard.
  const davRepository = new DavRepository(db);
  const davLocks = new DavLocks({ repo: davRepository, clock });
  /**
   * The admin or key behind a `created_by` value as it is now: undefined when the key is gone, disabled or
   * expired. Tasks resumed by another instance, signed fs links and zip links act through it.
   */
  const principalOfCreator = (createdBy: string) =>
    createdBy.startsWith('apikey:')
      ? apiKeys.principalById(createdBy.slice('apikey:'.length))
      : auth.principalById(createdBy);
  const settings = new SettingsService({
    settings: new SettingsRepository(db),
    clock,
    onSaved: () => cluster.notify({ kind: 'settings' }),
  });
  const system = new SystemService({
    version: packageVersion,
    database: database.dialect,
    ping: () => pingDatabase(db),
    clock,
    startedAt: clock.now().getTime(),
    instanceId: cluster.instanceId,
    storages: async () =>
      (await storageConfigs.allRows()).map((row) => ({
        id: row.id,
        name: row.name,
        check: async () => {
          await storageConfigs.driverOf(row).list('', { limit: 1 });
        },
      })),
  });
  const audit = new AuditLog({ repo: new AuditLogRepository(db), settings, clock, logger });
  const stats = new StatsService({ stats: new StatsRepository(db), clock, logger });
  const caches = new CacheRegistry();
  caches.register('settings', settings.cacheHandle());
  const dashboard = new DashboardService({ dashboard: new DashboardRepository(db), stats, clock });
  caches.register('dashboard', dashboard.cacheHandle());
  const pasteRepository = new PasteRepository(db);
  // The flush has a connection of its own: views that overlap it wait for it (PendingViews.countedRead).
  const pendingViews = new PendingViews({ store: new PasteRepository(database.flushDb ?? db), logger });
  const pastes = new PasteService({ pastes: pasteRepository, clock, stats, pendingViews, limiter: secretAttempts });
  // One guard for every way a storage endpoint enters (API, import, restore) and is connected to.
  const endpointGuard = new StorageEndpointGuard({ allowPrivate: config.storageEndpointsAllowPrivate });
  const backups = new BackupService({
    backups: new BackupRepository(db, database.dialect),
    cipher,
    encryptionKey,
    appVersion: packageVersion,
    schemaVersion: Object.keys(migrations).sort().at(-1) ?? '',
    clock,
    settleWrites: () => pastes.flushViews(),
    maxBytes: config.backupMaxBytes,
    endpointGuard,
  });
  const storageRegistry = new StorageRegistry({
    factories: {
      local: (root) => createDriver({ kind: 'local', root, fsync: config.localFsync }),
      // Storage endpoints may be on the LAN, never a cloud metadata / link-local address (net/storageEndpointGuard).
      s3: (settings) => createDriver({ kind: 's3', ...settings, lookup: endpointGuard.lookup() }),
      webdav: (settings) => createDriver({ kind: 'webdav', ...settings, lookup: endpointGuard.lookup() }),
      ftp: (settings) => createDriver({ kind: 'ftp', ...settings, lookup: endpointGuard.lookup() }),
      sftp: (settings) => createDriver({ kind: 'sftp', ...settings, lookup: endpointGuard.lookup() }),
      // rclone reaches its backend itself (the endpoint guard cannot see it); the app talks to it on 127.0.0.1.
      rclone: (settings) =>
        createDriver({
          kind: 'rclone',
          ...settings,
          binary: config.rcloneBinary,
          tmpDir: path.join(config.dataDir, 'tmp'),
        }),
    },
    cipher,
    localRoot: path.join(config.dataDir, 'storage', 'local'),
    localRoots: new LocalRoots(config.localStorageRoots),
    endpointGuard,
  });
  const storageConfigs = new StorageConfigService({
    configs: new StorageConfigRepository(db),
    registry: storageRegistry,
    cipher,
    clock,
    corsOrigin: config.publicUrl,
    // `storageUsage` is made below; it is first asked by a request.
    storedBytes: (id): Promise<number> => storageUsage.usedBytes(id),
  });
  const mountRepository = new MountRepository(db);
  const fileRows = new FileRepository(db);
  const storageUsage: StorageUsage = new StorageUsage({
    driverFor: (storageConfigId) => storageConfigs.mountDriverOf(storageConfigId),
    now: () => clock.now().getTime(),
  });
  const vfs = new Vfs({
    loadMounts: async () => (await mountRepository.list()).map(toMountRecord),
    driverFor: (storageConfigId) => storageConfigs.mountDriverOf(storageConfigId),
    now: () => clock.now().getTime(),
    onMountsChanged: (mountId) => cluster.notify({ kind: 'mounts', ...(mountId ? { mountId } : {}) }),
    writeGuard: (path, scope) => davLocks.assertUnlocked(path, scope),
    shareObjects: {
      at: (configId, paths) => fileRows.shareObjectsAt(configId, paths),
      below: (configId, dir) => fileRows.hasShareObjectsBelow(configId, dir, SHARE_AREA),
    },
    // `files` is made below; the limit is first asked by a request.
    writeLimit: mountWriteLimit({
      maxUploadSize: () => files.maxUploadSize(),
      capacityOf: async (id) => (await storageConfigs.requireRow(id)).total_capacity,
      // The same figure as the capacity bar and the WebDAV quota (StorageConfigService.usage).
      usage: { usedBytes: (id) => storageConfigs.usedBytes(id) },
    }),
  });
  // The counted usage of a storage follows the writes made through the tree (a removal: counted again).
  vfs.onChange((change) => {
    void vfs.mountById(change.mountId).then((mount) => {
      if (!mount) return;
      if ((change.type === 'write' || change.type === 'copy') && change.entry && !change.entry.isDir) {
        storageUsage.added(mount.storage_config_id, change.entry.size);
      } else if (change.type === 'remove' || change.type === 'copy') {
        storageUsage.forget(mount.storage_config_id);
      }
    });
  });
  // Cache invalidations across instances (PostgreSQL LISTEN/NOTIFY; docs/deployment.md lists every cache).
  vfs.onChange((change) =>
    cluster.notify({
      kind: 'listing',
      mountId: change.mountId,
      path: change.path,
      ...(change.toPath !== undefined ? { toPath: change.toPath } : {}),
    }),
  );
  cluster.subscribe((event) => {
    if (event.kind === 'settings') settings.cacheHandle().clear();
    else if (event.kind === 'mounts') vfs.mountsChanged(event.mountId, true);
    else if (event.kind === 'listing') vfs.remoteChange(event);
  });
  const mounts = new MountService({ mounts: mountRepository, storageConfigs, vfs, clock });
  const files = new FileShareService({ files: fileRows, storageConfigs, settings, clock, logger });
  const fileUploads = new FileUploadService({ files: fileRows, shares: files, storageConfigs });
  const fileServing = new FileServingService({
    files: fileRows,
    storageConfigs,
    settings,
    stats,
    clock,
    logger,
    tokenSecret: encryptionKey,
    publicUrl: config.publicUrl,
    limiter: secretAttempts,
    contentDisposition,
  });
  const fs = new FsService({
    vfs,
    files,
    clock,
    tokenSecret: encryptionKey,
    publicUrl: config.publicUrl,
    contentDisposition,
    principalOf: principalOfCreator,
    officeProvider: () => settings.get('preview_office_provider'),
  });
  const fsUploads = new FsUploadService({
    vfs,
    fs,
    maxUploadSize: () => files.maxUploadSize(),
    sessions: new UploadSessionRepository(db),
    clock,
    logger,
  });
  const taskRows = new TaskRepository(db, database.dialect);
  const tasks = new TaskService({
    tasks: taskRows,
    clock,
    logger,
    runnerId: cluster.instanceId,
    leaseMs: config.taskLeaseMs,
    singleInstance: database.dialect === 'sqlite',
    // A task claimed from the database (its instance died) runs as the admin or key that started it.
    principalOf: principalOfCreator,
  });
  const copies = new CopyService({ vfs, tasks });
  const folderEtags = new FolderEtags({ repo: davRepository, logger });
  vfs.onChange((change) => folderEtags.changed(change));
  const webdav = new WebdavService({
    folderEtags,
    vfs,
    copies,
    fs,
    settings,
    repo: davRepository,
    locks: davLocks,
    space: new StorageSpaceService({ storageConfigs, clock }),
    keyName: async (id) => (await apiKeyRepository.findById(id))?.name,
  });
  const chunkedUploads = new ChunkedUploads({
    dir: path.join(config.dataDir, 'tmp', 'nextcloud-chunks'),
    webdav,
    logger,
  });
  const davAuth = new DavAuth({ auth, apiKeys, limiter: secretAttempts, clock, twoFactor });
  apiKeys.onChange(async (change) => {
    davAuth.forget();
    // A key that may no longer write over WebDAV (disabled, deleted, webdav_manage taken away) holds no locks.
    const row = change.row;
    if (!row || row.enabled !== 1 || !hasPermission(row.permissions, Permission.WEBDAV_MANAGE)) {
      await davLocks.dropHeldByKey(change.id);
    }
  });
  auth.onChange(() => davAuth.forget());
  const loginFlows = new LoginFlowService({
    flows: new LoginFlowRepository(db),
    apiKeys,
    cipher,
    clock,
    limiter: secretAttempts,
  });
  twoFactor.onChange(() => davAuth.forget());
  const backupScheduler = new BackupScheduler({
    backups,
    settings,
    targets: storageBackupTargets(storageConfigs),
    clock,
    logger,
    exclusive: (name, fn) => cluster.exclusive(name, fn),
  });
  const sessions = new UploadSessionRepository(db);
  const tempSweep = new TempSweepService({
    storageConfigs,
    sessions,
    clock,
    logger,
    idleMs: config.uploadIdleTimeoutMs,
  });
  const directUploads = new DirectUploadService({
    sessions,
    files,
    uploads: fileUploads,
    storageConfigs,
    clock,
    logger,
  });
  const multipartUploads = new MultipartUploadService({ sessions, uploads: fileUploads, direct: directUploads });
  const urlUploads = new UrlUploadService({
    guard: new SsrfGuard({ allowPrivate: config.allowPrivateUrls }),
    files: fileUploads,
    shares: files,
    tasks,
    taskRows,
    logger,
  });
  const zips = new ZipService({ vfs, clock, principalOf: principalOfCreator });
  const bundleFiles = new BundleFileRepository(db);
  const folderShares = new FolderShareService({
    shares: new FolderShareRepository(db),
    bundleFiles,
    bundles: new BundleContent({ bundleFiles, storageConfigs }),
    vfs,
    fs,
    zips,
    clock,
    limiter: secretAttempts,
    principalOf: principalOfCreator,
    tokenSecret: encryptionKey,
    ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
  });
  const uploadRequests = new UploadRequestService({
    requests: new UploadRequestRepository(db),
    vfs,
    fileUploads,
    files,
    clock,
    limiter: secretAttempts,
    principalOf: principalOfCreator,
    ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
  });
  const search = new SearchService({
    vfs,
    index: new FsIndexRepository(db),
    clock,
    logger,
    runDue: (name, everyMs, now, fn) => cluster.runDue(name, everyMs, now, fn),
    // Changes made on a storage behind the app's back give the folders above them new WebDAV ETags.
    onStorageChange: (folder) => folderEtags.contentChanged(folder),
  });
  const cloudpasteImport = new CloudpasteImportService({
    repo: new CloudpasteImportRepository(db),
    cipher,
    clock,
    checkLocalRoot: localRootCheck(storageRegistry),
    endpointGuard,
    objectExists: localObjectCheck(storageRegistry),
    settings: () => settings.values(),
    afterImport: () => {
      vfs.mountsChanged();
      caches.clearAll();
    },
  });
  const thumbnails = new ThumbnailService(
    { vfs, logger },
    { cacheDir: path.join(config.dataDir, 'cache', 'thumbnails') },
  );
  const archives = new ArchiveService({ vfs });
  return {
    folderEtags,
    chunkedUploads,
    cluster,
    audit,
    cloudpasteImport,
    auth,
    twoFactor,
    passkeys,
    secretAttempts,
    apiKeys,
    tempSweep,
    tasks,
    copies,
    zips,
    folderShares,
    uploadRequests,
    search,
    thumbnails,
    archives,
    directUploads,
    multipartUploads,
    urlUploads,
    publicUrl: config.publicUrl,
    uploadSpoolDir: uploadSpoolDir(config.dataDir),
    settings,
    system,
    caches,
    backups,
    backupScheduler,
    stats,
    pastes,
    dashboard,
    storageRegistry,
    storageConfigs,
    files,
    fileUploads,
    fileServing,
    linkPreviews: new LinkPreviewService({ pastes: pasteRepository, files: fileRows, settings, clock }),
    vfs,
    mounts,
    fs,
    fsUploads,
    webdav,
    davAuth,
    loginFlows,
    guard: new Guard({ auth, apiKeys }),
  };
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
  const pasteSweep = periodic('paste-sweep', PASTE_SWEEP_INTERVAL_MS, () => services.pastes.sweepExpired());
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

  return {
    app,
    fetch,
    database,
    services,
    createdAdmin,
    generatedEncryptionKey: generated,
    logger,
    metrics,
    sweepTemp,
    close: async () => {
      clearInterval(sweep);
      clearInterval(tempSweep);
      await sweeping;
      clearInterval(pasteSweep);
      clearInterval(auditSweep);
      await services.stats.flush();
      await services.pastes.flushViews();
      services.backupScheduler.stop();
      clearInterval(uploadSweep);
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
