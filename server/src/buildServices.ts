// The app's services wired together: repositories, the tree, storage, WebDAV, shares, tasks and what listens to
// whose changes.
import { readFileSync } from 'node:fs';
import { DavRepository } from './repositories/davRepository.js';
import { DavAuth } from './webdav/davAuth.js';
import { FolderEtags } from './webdav/folderEtags.js';
import { LoginFlowService } from './services/auth/loginFlowService.js';
import { LoginFlowRepository } from './repositories/loginFlowRepository.js';
import { ChunkedUploads } from './webdav/chunkedUploads.js';
import { DavLocks } from './webdav/davLocks.js';
import { WebdavService } from './webdav/webdavService.js';
import path from 'node:path';
import { Permission, hasPermission } from '@clipnest/contract';
import { uploadSpoolDir } from './http/uploadForm.js';
import type { Config } from './config.js';
import { pingDatabase, type DatabaseHandle } from './db/database.js';
import { Guard } from './http/auth.js';
import { type Clock } from './lib/clock.js';
import { type Logger } from './lib/logger.js';
import { AdminRepository } from './repositories/adminRepository.js';
import { AdminTokenRepository } from './repositories/adminTokenRepository.js';
import { ApiKeyRepository } from './repositories/apiKeyRepository.js';
import { SettingsRepository } from './repositories/settingsRepository.js';
import { BackupRepository } from './repositories/backupRepository.js';
import { BackupService } from './services/admin/backup/backupService.js';
import { BackupScheduler } from './services/admin/backup/backupScheduler.js';
import { storageBackupTargets } from './services/admin/backup/storageBackupTargets.js';
import { CacheRegistry } from './services/admin/cacheRegistry.js';
import { StatsRepository } from './repositories/statsRepository.js';
import { PasteRepository } from './repositories/pasteRepository.js';
import { PasteService } from './services/pastes/pasteService.js';
import { StatsService } from './services/admin/statsService.js';
import { PendingViews } from './services/pastes/pendingViews.js';
import { DashboardRepository } from './repositories/dashboardRepository.js';
import { DashboardService } from './services/admin/dashboardService.js';
import { migrations } from './db/migrations/index.js';
import { SecretCipher } from './security/cipher.js';
import { ApiKeyService } from './services/auth/apiKeyService.js';
import { basePathState } from './services/fs/treeFolders.js';
import { AuthService } from './services/auth/authService.js';
import { TwoFactorService } from './services/auth/twoFactorService.js';
import { PasskeyService } from './services/auth/passkeyService.js';
import { SecondFactorRepository } from './repositories/secondFactorRepository.js';
import { PasskeyRepository } from './repositories/passkeyRepository.js';
import { noAuthEvents, type AuthEventSink } from './services/auth/authEvents.js';
import { SecretAttemptLimiter } from './services/auth/secretAttemptLimiter.js';
import { SecretAttemptRepository } from './repositories/secretAttemptRepository.js';
import { LinkPreviewService } from './services/linkPreviews/linkPreviewService.js';
import { SettingsService } from './services/admin/settingsService.js';
import { SystemService } from './services/admin/systemService.js';
import { FileRepository } from './repositories/fileRepository.js';
import { StorageConfigRepository } from './repositories/storageConfigRepository.js';
import { contentDisposition } from './http/contentDisposition.js';
import { FileServingService } from './services/shares/serving/fileServingService.js';
import { FileShareService } from './services/shares/fileShareService.js';
import { FileUploadService } from './services/shares/uploads/fileUploadService.js';
import { StorageConfigService } from './services/storageConfigs/storageConfigService.js';
import { LocalRoots } from './storage/local/localRoots.js';
import { CloudpasteImportRepository } from './repositories/cloudpasteImportRepository.js';
import { CloudpasteImportService } from './services/admin/cloudpasteImport/cloudpasteImportService.js';
import { localObjectCheck, localRootCheck } from './services/admin/cloudpasteImport/localStorage.js';
import { StorageRegistry } from './storage/storageRegistry.js';
import { StorageSpaceService } from './services/storageConfigs/storageSpace.js';
import { StorageEndpointGuard } from './net/storageEndpointGuard.js';
import { createDriver } from './storage/index.js';
import { SHARE_AREA } from './storage/paths.js';
import { SsrfGuard } from './net/ssrfGuard.js';
import { UploadSessionRepository } from './repositories/uploadSessionRepository.js';
import { DirectUploadService } from './services/shares/uploads/directUploadService.js';
import { MultipartUploadService } from './services/shares/uploads/multipartUploadService.js';
import { UrlUploadService } from './services/shares/uploads/urlUploadService.js';
import { MountRepository } from './repositories/mountRepository.js';
import { Vfs } from './vfs/vfs.js';
import { MountService } from './services/storageConfigs/mountService.js';
import { FsService } from './services/fs/fsService.js';
import { FsUploadService } from './services/fs/fsUploadService.js';
import { toMountRecord } from './vfs/mountTable.js';
import { TempSweepService } from './services/admin/tempSweepService.js';
import { TaskRepository } from './repositories/taskRepository.js';
import { FsIndexRepository } from './repositories/fsIndexRepository.js';
import { TaskService } from './services/fs/tasks/taskService.js';
import { CopyService } from './services/fs/tasks/copyService.js';
import { ZipService } from './services/fs/zip/zipService.js';
import { BundleFileRepository } from './repositories/bundleFileRepository.js';
import { FolderShareRepository } from './repositories/folderShareRepository.js';
import { BundleContent } from './services/shares/bundleContent.js';
import { UploadRequestRepository } from './repositories/uploadRequestRepository.js';
import { UploadRequestService } from './services/shares/uploadRequestService.js';
import { FolderShareService } from './services/shares/folderShareService.js';
import { SearchService } from './services/fs/search/searchService.js';
import type { Cluster } from './db/cluster.js';
import { StorageUsage } from './services/storageConfigs/storageUsage.js';
import { mountWriteLimit } from './services/storageConfigs/writeLimits.js';
import { ArchiveService } from './services/fs/archives/archiveService.js';
import { ThumbnailService } from './services/fs/thumbnails/thumbnailService.js';
import { AuditLogRepository } from './repositories/auditLogRepository.js';
import { AuditLog } from './services/admin/audit/auditLog.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export type AppServicesBuilt = ReturnType<typeof buildServices>;

/** Every service of the app, wired once (the composition root; buildServer opens what they need first). */
export function buildServices(
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
