import { Hono, type Context, type Next } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { AppError } from './errors.js';
import type { Guard } from './http/auth.js';
import { clientAddress } from './http/clientAddress.js';
import type { AppEnv } from './http/env.js';
import { createErrorHandler } from './http/onError.js';
import { linkPreviewHead } from './http/linkPreview.js';
import { withPrepaint } from './http/sharePrepaint.js';
import { joinHeads, siteSettingsHead } from './http/siteSettingsHead.js';
import { createWebAppHandler } from './http/webApp.js';
import type { Logger } from './lib/logger.js';
import { apiKeyRoutes } from './routes/apiKeyRoutes.js';
import { integrationRoutes } from './routes/integrationRoutes.js';
import { apiDocsRoutes } from './routes/apiDocsRoutes.js';
import { openapiRoutes } from './routes/openapiRoutes.js';
import { backupRoutes } from './routes/backupRoutes.js';
import { cloudpasteImportRoutes } from './routes/cloudpasteImportRoutes.js';
import type { CloudpasteImportService } from './services/admin/cloudpasteImport/cloudpasteImportService.js';
import { cacheRoutes } from './routes/cacheRoutes.js';
import { pasteAdminRoutes, pasteRoutes } from './routes/pasteRoutes.js';
import { dashboardRoutes } from './routes/dashboardRoutes.js';
import type { DashboardService } from './services/admin/dashboardService.js';
import type { BackupService } from './services/admin/backup/backupService.js';
import type { BackupScheduler } from './services/admin/backup/backupScheduler.js';
import type { CacheRegistry } from './services/admin/cacheRegistry.js';
import type { PasteService } from './services/pastes/pasteService.js';
import { authRoutes } from './routes/authRoutes.js';
import { twoFactorRoutes } from './routes/twoFactorRoutes.js';
import type { TwoFactorService } from './services/auth/twoFactorService.js';
import type { PasskeyService } from './services/auth/passkeyService.js';
import { publicSettingsRoutes, settingsRoutes } from './routes/settingsRoutes.js';
import { systemRoutes } from './routes/systemRoutes.js';
import { fileRoutes, maxUploadSizeRoutes } from './routes/fileRoutes.js';
import { publicFileRoutes } from './routes/publicFileRoutes.js';
import { storageConfigRoutes } from './routes/storageConfigRoutes.js';
import { uploadRoutes } from './routes/uploadRoutes.js';
import { multipartRoutes } from './routes/multipartRoutes.js';
import { s3UploadRoutes } from './routes/s3UploadRoutes.js';
import { uploadDirectRoutes } from './routes/uploadDirectRoutes.js';
import { urlUploadRoutes } from './routes/urlUploadRoutes.js';
import { mountRoutes } from './routes/mountRoutes.js';
import { fsRoutes } from './routes/fsRoutes.js';
import { fsUploadRoutes } from './routes/fsUploadRoutes.js';
import { davRoutes } from './webdav/davRoutes.js';
import { davPathOf, rawPathOf } from './webdav/davRequest.js';
import { uploadsBaseOf } from './webdav/handlers/chunkedUpload.js';
import { nextcloudBaseOf } from './webdav/nextcloudPaths.js';
import { nextcloudRoutes } from './routes/nextcloudRoutes.js';
import { webdavSettingsRoutes } from './routes/webdavSettingsRoutes.js';
import type { DavAuth } from './webdav/davAuth.js';
import type { LoginFlowService } from './services/auth/loginFlowService.js';
import { loginFlowRoutes, nextcloudLoginRoutes } from './routes/loginFlowRoutes.js';
import type { SecretAttemptLimiter } from './services/auth/secretAttemptLimiter.js';
import type { WebdavService } from './webdav/webdavService.js';
import type { FsUploadService } from './services/fs/fsUploadService.js';
import type { FsService } from './services/fs/fsService.js';
import { fsCopyRoutes } from './routes/fsCopyRoutes.js';
import { fsSearchRoutes } from './routes/fsSearchRoutes.js';
import { fsArchiveRoutes } from './routes/fsArchiveRoutes.js';
import { fsThumbnailRoutes } from './routes/fsThumbnailRoutes.js';
import type { ArchiveService } from './services/fs/archives/archiveService.js';
import type { ThumbnailService } from './services/fs/thumbnails/thumbnailService.js';
import { fsZipRoutes } from './routes/fsZipRoutes.js';
import { taskRoutes } from './routes/taskRoutes.js';
import type { TaskService } from './services/fs/tasks/taskService.js';
import type { CopyService } from './services/fs/tasks/copyService.js';
import type { ZipService } from './services/fs/zip/zipService.js';
import type { FolderShareService } from './services/shares/folderShareService.js';
import type { UploadRequestService } from './services/shares/uploadRequestService.js';
import { folderShareRoutes } from './routes/folderShareRoutes.js';
import { uploadRequestRoutes } from './routes/uploadRequestRoutes.js';
import type { SearchService } from './services/fs/search/searchService.js';
import type { MountService } from './services/storageConfigs/mountService.js';
import type { DirectUploadService } from './services/shares/uploads/directUploadService.js';
import type { MultipartUploadService } from './services/shares/uploads/multipartUploadService.js';
import type { UrlUploadService } from './services/shares/uploads/urlUploadService.js';
import type { FileServingService } from './services/shares/serving/fileServingService.js';
import type { FileShareService } from './services/shares/fileShareService.js';
import type { FileUploadService } from './services/shares/uploads/fileUploadService.js';
import type { StorageConfigService } from './services/storageConfigs/storageConfigService.js';
import type { ApiKeyService } from './services/auth/apiKeyService.js';
import type { AuthService } from './services/auth/authService.js';
import type { LinkPreviewService } from './services/linkPreviews/linkPreviewService.js';
import type { SettingsService } from './services/admin/settingsService.js';
import type { SystemService } from './services/admin/systemService.js';
import { observe, type HttpMetrics } from './http/observability.js';
import { apiAuditTrail, davAuditTrail } from './http/auditTrail.js';
import { auditLogRoutes } from './routes/auditLogRoutes.js';
import type { AuditLog } from './services/admin/audit/auditLog.js';
import { timingSafeEqual } from 'node:crypto';

export interface AppServices {
  auth: AuthService;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
  apiKeys: ApiKeyService;
  settings: SettingsService;
  system: SystemService;
  guard: Guard;
  caches: CacheRegistry;
  backups: BackupService;
  pastes: PasteService;
  backupScheduler: BackupScheduler;
  cloudpasteImport: CloudpasteImportService;
  dashboard: DashboardService;
  storageConfigs: StorageConfigService;
  files: FileShareService;
  fileUploads: FileUploadService;
  fileServing: FileServingService;
  /** Open Graph / Twitter meta of shared paste and file pages. */
  linkPreviews: LinkPreviewService;
  directUploads: DirectUploadService;
  multipartUploads: MultipartUploadService;
  urlUploads: UrlUploadService;
  mounts: MountService;
  fs: FsService;
  fsUploads: FsUploadService;
  tasks: TaskService;
  copies: CopyService;
  zips: ZipService;
  folderShares: FolderShareService;
  uploadRequests: UploadRequestService;
  search: SearchService;
  thumbnails: ThumbnailService;
  archives: ArchiveService;
  webdav: WebdavService;
  davAuth: DavAuth;
  /** Nextcloud Login Flow v2: apps signing in with an app password the admin approved. */
  loginFlows: LoginFlowService;
  /** The audit log: changes, sign-ins and failed key uses (recorded by http/auditTrail.ts). */
  audit: AuditLog;
  /** The secret-attempt limiter (the WebDAV settings page lists and clears blocked addresses). */
  secretAttempts: SecretAttemptLimiter;
  /** PUBLIC_URL, for absolute links in API answers. */
  publicUrl?: string;
  /** Where form uploads spool a file part that came before its location fields (http/uploadForm.ts). */
  uploadSpoolDir: string;
}

export interface AppOptions {
  logger: Logger;
  webDistDir: string;
  trustProxy: boolean;
  /** TRUST_PROXY_HOPS: proxies in front of the app that append to X-Forwarded-For (default 1). */
  proxyHops?: number;
  /** Prometheus metrics of the requests; `/metrics` serves them when `metricsToken` is set (Bearer). */
  metrics?: HttpMetrics;
  metricsToken?: string;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createApp(services: AppServices, options: AppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', observe({ logger: options.logger, metrics: options.metrics }));
  const { metrics, metricsToken } = options;
  if (metrics && metricsToken) {
    // Without METRICS_TOKEN the path is not served here (METRICS_PORT serves it on a port of its own).
    app.get('/metrics', async (c) => {
      const given = (c.req.header('authorization') ?? '').replace(/^Bearer\s+/i, '');
      if (!sameSecret(given, metricsToken)) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return c.text('unauthorized\n', 401);
      }
      return c.body(await metrics.text(), 200, { 'Content-Type': metrics.contentType });
    });
  } else {
    app.get('/metrics', (c) => c.text('not found: set METRICS_TOKEN (or METRICS_PORT) to serve metrics\n', 404));
  }
  app.use(
    '*',
    secureHeaders({
      // Shares may be embedded elsewhere (images in a blog post), so resources stay cross-origin readable.
      crossOriginResourcePolicy: false,
      crossOriginOpenerPolicy: false,
      xFrameOptions: 'SAMEORIGIN',
      referrerPolicy: 'strict-origin-when-cross-origin',
    }),
  );
  app.use('/api/*', async (c, next) => {
    // Set before the handler (a route's own Cache-Control replaces it): setting a header after the
    // response exists makes Hono rebuild it as a full web Response, which costs a third of a small request.
    c.header('Cache-Control', 'no-store');
    c.set('clientAddress', clientAddress(c, options.trustProxy, options.proxyHops));
    await next();
  });
  app.use('/api/*', apiAuditTrail(services.audit));

  const davClient = async (c: Context<AppEnv>, next: Next) => {
    c.set('clientAddress', clientAddress(c, options.trustProxy, options.proxyHops));
    await next();
  };
  app.use('/dav', davClient);
  app.use('/dav/*', davClient);
  const davTrail = davAuditTrail(services.audit, (c) => davPathOf(rawPathOf(c)));
  app.use('/dav', davTrail);
  app.use('/dav/*', davTrail);
  const dav = davRoutes({ ...services, logger: options.logger });
  app.route('/dav', dav);
  // Nextcloud's and ownCloud's apps: their discovery answers and the same tree at their addresses.
  for (const path of [
    '/status.php',
    '/nextcloud/status.php',
    '/owncloud/status.php',
    '/ocs/*',
    '/remote.php/*',
    '/index.php/login/*',
    '/login/v2',
    '/login/v2/*',
  ]) {
    app.use(path, davClient);
  }
  const nextcloudTrail = davAuditTrail(services.audit, (c) => {
    const raw = rawPathOf(c);
    const base = nextcloudBaseOf(raw) ?? uploadsBaseOf(raw);
    return base ? davPathOf(raw, base) : raw;
  });
  app.use('/ocs/*', nextcloudTrail);
  app.use('/remote.php/*', nextcloudTrail);
  app.route(
    '/',
    nextcloudRoutes({
      davAuth: services.davAuth,
      productName: async () => (await services.settings.get('site_title')) || 'Clipnest',
    }),
  );
  app.route('/remote.php', davRoutes({ ...services, logger: options.logger, flavour: 'nextcloud' }));
  // Login Flow v2: the apps start a flow and poll for their app password; the admin answers at /connect/<token>.
  app.route(
    '/',
    nextcloudLoginRoutes({
      loginFlows: services.loginFlows,
      audit: services.audit,
      trustProxy: options.trustProxy,
      publicUrl: services.publicUrl,
    }),
  );

  const api = new Hono<AppEnv>();
  api.route('/', systemRoutes(services));
  api.route('/', authRoutes({ ...services, trustProxy: options.trustProxy }));
  api.route('/admin', twoFactorRoutes({ ...services, trustProxy: options.trustProxy }));
  api.route('/admin/api-keys', apiKeyRoutes(services));
  api.route('/admin/login-flows', loginFlowRoutes(services));
  api.route('/admin/settings', settingsRoutes(services));
  api.route('/public', publicSettingsRoutes(services));
  api.route('/', cacheRoutes(services));
  api.route('/admin/backup', backupRoutes(services));
  api.route('/admin/import', cloudpasteImportRoutes(services));
  api.route('/', pasteRoutes(services));
  api.route('/pastes', pasteAdminRoutes(services));
  api.route('/admin/dashboard', dashboardRoutes(services));
  api.route('/s3-configs', storageConfigRoutes(services));
  api.route('/upload/multipart', multipartRoutes(services));
  api.route('/upload', uploadRoutes(services));
  api.route('/s3', s3UploadRoutes(services));
  api.route('/url', urlUploadRoutes(services));
  api.route('/upload-direct', uploadDirectRoutes({ ...services, trustProxy: options.trustProxy }));
  api.route('/files', fileRoutes(services));
  api.route('/shares', folderShareRoutes(services));
  api.route('/upload-requests', uploadRequestRoutes(services));
  api.route('/mount', mountRoutes(services));
  api.route('/fs', fsRoutes({ ...services, trustProxy: options.trustProxy }));
  api.route('/fs', fsUploadRoutes(services));
  api.route('/fs/tasks', taskRoutes(services));
  api.route('/fs', fsCopyRoutes(services));
  api.route('/fs', fsZipRoutes(services));
  api.route('/fs', fsSearchRoutes(services));
  api.route('/fs', fsThumbnailRoutes(services));
  api.route('/fs', fsArchiveRoutes(services));
  api.route('/', maxUploadSizeRoutes(services));
  api.route('/integrations', integrationRoutes({ ...services, trustProxy: options.trustProxy }));
  api.route(
    '/',
    publicFileRoutes({ files: services.fileServing, guard: services.guard, trustProxy: options.trustProxy }),
  );
  api.route('/admin/webdav', webdavSettingsRoutes(services));
  api.route('/admin/audit-log', auditLogRoutes(services));
  const version = services.system.version().version;
  api.route('/', openapiRoutes({ settings: services.settings, version }));
  api.all('*', (c) => {
    throw AppError.notFound(`no such endpoint: ${c.req.method} ${c.req.path}`);
  });
  app.route('/api', api);

  const head = withPrepaint(
    joinHeads(
      siteSettingsHead({ settings: services.settings, logger: options.logger }),
      linkPreviewHead({
        previews: services.linkPreviews,
        trustProxy: options.trustProxy,
        publicUrl: services.publicUrl,
        logger: options.logger,
      }),
    ),
  );
  app.route('/', apiDocsRoutes({ settings: services.settings, version }));
  app.get('*', createWebAppHandler(options.webDistDir, { head }));
  app.all('*', (c) => c.text('Method Not Allowed', 405));

  const onError = createErrorHandler(options.logger);
  app.onError(onError);
  api.onError(onError);
  return app;
}
