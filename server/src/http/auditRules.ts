/**
 * Which action each API route records in the audit log, keyed by method and route pattern (`routePath`). Every
 * route that changes something (any method but GET/HEAD/OPTIONS) must be named here: a test walks the app's
 * routes and fails for one that is missing, so a new route gets its name when it is added.
 * - `action`: what the entry says (`<domain>.<verb>`).
 * - `failed`: the action of a request that did not succeed, when it differs (a wrong sign-in).
 * - `view`: a read (a share opened, a zip downloaded): recorded only when the `audit_log_views` setting is on.
 * - `skip`: not recorded, with the reason (a chunk of an upload whose start and end are recorded, a check that
 *   changes nothing).
 * - `bodyKeys`: the target lists the names of the body's fields (which settings changed, never their values).
 * - `signIn`: a successful answer names the admin who signed in (`username` of its data): that is the actor.
 */
export type AuditRule =
  | { action: string; failed?: string; view?: true; bodyKeys?: true; signIn?: true; skip?: undefined }
  | {
      skip: string;
      action?: undefined;
      failed?: undefined;
      view?: undefined;
      bodyKeys?: undefined;
      signIn?: undefined;
    };

const PART = 'one part of an upload: its start and its completion are recorded';
const READ = 'reads or checks, changes nothing';

export const API_AUDIT_RULES: Record<string, AuditRule> = {
  // sign-in and account
  'POST /api/admin/login': { action: 'auth.login', failed: 'auth.login.failed', signIn: true },
  'POST /api/admin/logout': { action: 'auth.logout' },
  'POST /api/admin/change-password': { action: 'auth.password.change', failed: 'auth.password.change.failed' },
  // second factors and sessions
  'POST /api/admin/2fa/setup': { action: 'auth.2fa.setup' },
  'POST /api/admin/2fa/enable': { action: 'auth.2fa.enable', failed: 'auth.2fa.enable.failed' },
  'POST /api/admin/2fa/disable': { action: 'auth.2fa.disable', failed: 'auth.2fa.disable.failed' },
  'POST /api/admin/2fa/recovery-codes': { action: 'auth.2fa.recovery_codes', failed: 'auth.2fa.recovery_codes.failed' },
  'DELETE /api/admin/sessions': { action: 'auth.session.end_others' },
  'DELETE /api/admin/sessions/:id': { action: 'auth.session.end' },
  'POST /api/admin/passkeys/register/options': { skip: 'a challenge for the passkey added next (that is recorded)' },
  'POST /api/admin/passkeys': { action: 'auth.passkey.add', failed: 'auth.passkey.add.failed' },
  'PUT /api/admin/passkeys/:id': { action: 'auth.passkey.rename' },
  'DELETE /api/admin/passkeys/:id': { action: 'auth.passkey.remove' },
  'POST /api/admin/passkeys/login/options': { skip: 'a challenge for the sign-in that follows (that is recorded)' },
  'POST /api/admin/passkeys/login': { action: 'auth.login', failed: 'auth.login.failed', signIn: true },
  // API keys
  'POST /api/admin/api-keys': { action: 'api_key.create' },
  'PUT /api/admin/api-keys/:id': { action: 'api_key.update' },
  'DELETE /api/admin/api-keys/:id': { action: 'api_key.delete' },
  // Nextcloud Login Flow v2 (the app password made on approval is an API key: its name is the target)
  'POST /api/admin/login-flows/:token/approve': { action: 'api_key.login_flow.approve' },
  'POST /api/admin/login-flows/:token/deny': { action: 'api_key.login_flow.deny' },
  // settings, caches
  'PUT /api/admin/settings/group/:group': { action: 'settings.update', bodyKeys: true },
  'POST /api/admin/cache/clear': { action: 'cache.clear' },
  'POST /api/user/cache/clear': { action: 'cache.clear' },
  // backups, imports
  'POST /api/admin/backup/create': { action: 'backup.create' },
  'POST /api/admin/backup/schedule/run': { action: 'backup.run_scheduled' },
  'POST /api/admin/backup/preview': { skip: 'reads the uploaded backup file, changes nothing' },
  'POST /api/admin/backup/restore': { action: 'backup.restore' },
  'POST /api/admin/import/cloudpaste': { action: 'import.cloudpaste' },
  // pastes
  'POST /api/paste': { action: 'paste.create' },
  'POST /api/paste/:slug': { action: 'paste.view', view: true },
  'DELETE /api/pastes/batch-delete': { action: 'paste.delete' },
  'POST /api/pastes/batch-delete': { action: 'paste.delete' },
  'POST /api/pastes/clear-expired': { action: 'paste.clear_expired' },
  'PUT /api/pastes/:id': { action: 'paste.update' },
  'DELETE /api/pastes/:id': { action: 'paste.delete' },
  // folder shares
  'POST /api/shares': { action: 'folder_share.create' },
  'DELETE /api/shares/:id': { action: 'folder_share.delete' },
  // upload requests
  'POST /api/upload-requests': { action: 'upload_request.create' },
  'DELETE /api/upload-requests/:id': { action: 'upload_request.revoke' },
  'POST /api/upload-requests/:slug/upload': { action: 'upload_request.upload' },
  // storage configs
  'POST /api/s3-configs': { action: 'storage_config.create' },
  'PUT /api/s3-configs/:id/set-default': { action: 'storage_config.set_default' },
  'POST /api/s3-configs/:id/test': { action: 'storage_config.test' },
  'PUT /api/s3-configs/:id': { action: 'storage_config.update' },
  'DELETE /api/s3-configs/:id': { action: 'storage_config.delete' },
  // file shares: uploads
  'POST /api/upload/multipart/init': { action: 'file.upload.start' },
  'POST /api/upload/multipart/sign-parts': { skip: PART },
  'POST /api/upload/multipart/parts': { skip: PART },
  'PUT /api/upload/multipart/part': { skip: PART },
  'POST /api/upload/multipart/complete': { action: 'file.upload' },
  'POST /api/upload/multipart/abort': { action: 'file.upload.abort' },
  'POST /api/upload': { action: 'file.upload' },
  'POST /api/s3/presign': { action: 'file.upload.start' },
  'POST /api/s3/commit': { action: 'file.upload' },
  'POST /api/s3/cancel': { action: 'file.upload.abort' },
  'POST /api/url/info': { skip: READ },
  'POST /api/url/presign': { action: 'file.upload.start' },
  'POST /api/url/commit': { action: 'file.upload' },
  'POST /api/url/multipart/init': { action: 'file.upload.start' },
  'POST /api/url/multipart/complete': { action: 'file.upload' },
  'POST /api/url/multipart/abort': { action: 'file.upload.abort' },
  'POST /api/url/cancel': { action: 'file.upload.abort' },
  'POST /api/url/fetch': { action: 'file.url_fetch' },
  'PUT /api/upload-direct/:filename{.+}': { action: 'file.upload' },
  // file shares
  'DELETE /api/files/batch-delete': { action: 'file.delete' },
  'PUT /api/files/:id': { action: 'file.update' },
  'POST /api/public/files/:slug/verify': { action: 'file.verify', view: true },
  // mounts
  'POST /api/mount/create': { action: 'mount.create' },
  'PUT /api/mount/:id': { action: 'mount.update' },
  'DELETE /api/mount/:id': { action: 'mount.delete' },
  // the storage tree
  'POST /api/fs/mkdir': { action: 'fs.mkdir' },
  'POST /api/fs/rename': { action: 'fs.rename' },
  'DELETE /api/fs/batch-remove': { action: 'fs.delete' },
  'POST /api/fs/batch-remove': { action: 'fs.delete' },
  'POST /api/fs/update': { action: 'fs.write' },
  'POST /api/fs/create-share': { action: 'fs.share' },
  'POST /api/fs/upload': { action: 'fs.write' },
  'POST /api/fs/presign': { action: 'fs.upload.start' },
  'POST /api/fs/presign/commit': { action: 'fs.write' },
  'POST /api/fs/multipart/init': { action: 'fs.upload.start' },
  'PUT /api/fs/multipart/part': { skip: PART },
  'POST /api/fs/multipart/refresh-urls': { skip: PART },
  'POST /api/fs/multipart/list-parts': { skip: READ },
  'POST /api/fs/multipart/list-uploads': { skip: READ },
  'POST /api/fs/multipart/complete': { action: 'fs.write' },
  'POST /api/fs/multipart/abort': { action: 'fs.upload.abort' },
  'POST /api/fs/batch-copy': { action: 'fs.copy' },
  'POST /api/fs/batch-copy-commit': { action: 'fs.copy' },
  'POST /api/fs/zip': { action: 'fs.zip', view: true },
  'POST /api/fs/zip/link': { action: 'fs.zip_link', view: true },
  // tasks
  'DELETE /api/fs/tasks/completed': { action: 'task.clear_completed' },
  'POST /api/fs/tasks/:id/cancel': { action: 'task.cancel' },
  'POST /api/fs/tasks/:id/retry': { action: 'task.retry' },
  // WebDAV administration
  'POST /api/admin/webdav/check': { skip: READ },
  'DELETE /api/admin/webdav/locks/:id': { action: 'webdav.lock.remove' },
  'DELETE /api/admin/webdav/blocked/:id': { action: 'security.unblock' },
  // views (only with audit_log_views)
  'GET /api/paste/:slug': { action: 'paste.view', view: true },
  'GET /api/raw/:slug': { action: 'paste.view', view: true },
  'GET /api/public/files/:slug': { action: 'file.view', view: true },
  'GET /api/file-download/:slug': { action: 'file.download', view: true },
  'GET /api/file-view/:slug': { action: 'file.view', view: true },
  'GET /api/office-preview/:slug': { action: 'file.view', view: true },
  'GET /api/shares/:slug/file': { action: 'folder_share.download', view: true },
  'GET /api/shares/:slug/zip': { action: 'folder_share.zip', view: true },
};

/** WebDAV methods (one route serves them all). Reads are not recorded; LOCK/UNLOCK come around every client save. */
export const DAV_AUDIT_RULES: Record<string, AuditRule> = {
  PUT: { action: 'webdav.put' },
  DELETE: { action: 'webdav.delete' },
  MKCOL: { action: 'webdav.mkcol' },
  COPY: { action: 'webdav.copy' },
  MOVE: { action: 'webdav.move' },
  PROPPATCH: { action: 'webdav.proppatch' },
  LOCK: { skip: 'clients lock around every save; the write itself is recorded' },
  UNLOCK: { skip: 'clients lock around every save; the write itself is recorded' },
};

/** Methods that read only: not recorded unless their route is a view. */
export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);

export function apiRuleOf(method: string, routePath: string): AuditRule | undefined {
  return API_AUDIT_RULES[`${method} ${routePath}`];
}
