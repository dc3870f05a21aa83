// The tree over WebDAV: /dav/…, and for Nextcloud/ownCloud apps /remote.php/webdav/… and
// /remote.php/dav/files/<user>/… (same tree, their properties added). Authenticates, hands the request to its
// method's handler (handlers/), turns errors into XML (ARCHITECTURE.md).
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import type { Logger } from '../lib/logger.js';
import type { DavAuth } from './davAuth.js';
import type { WebdavService } from './webdavService.js';
import { errorReply, PLAIN_VIEW, type DavView } from './davReplies.js';
import { davPathOf, DavRequest, rawPathOf, xmlResponse, type Ctx } from './davRequest.js';
import { chunkedUpload, uploadsBaseOf } from './handlers/chunkedUpload.js';
import { davHandlers } from './handlers/index.js';
import { nextcloudBaseOf } from './nextcloudPaths.js';
import type { ChunkedUploads } from './chunkedUploads.js';

const METHODS = ['OPTIONS', ...Object.keys(davHandlers)].join(', ');

/** The status WebDAV answers for an error: a change aimed at a mount point or above the mounts is refused. */
function davStatusOf(error: AppError): number {
  return error.reason === 'mount_boundary' ? 403 : error.status;
}

export type DavFlavour = 'plain' | 'nextcloud';

export function davRoutes(deps: {
  webdav: WebdavService;
  davAuth: DavAuth;
  logger: Logger;
  publicUrl?: string;
  flavour?: DavFlavour;
  chunkedUploads?: ChunkedUploads;
}) {
  const { webdav, davAuth } = deps;
  const nextcloud = deps.flavour === 'nextcloud';

  const handle = async (c: Ctx): Promise<Response> => {
    c.header('DAV', '1, 2');
    c.header('MS-Author-Via', 'DAV');
    const method = c.req.method.toUpperCase();
    // A fragment never belongs in a request (a client that sends one means something else: refuse it).
    if (c.req.url.includes('#')) throw AppError.validation('the request URI must not carry a fragment');
    const rawPath = rawPathOf(c);
    const uploadsBase = nextcloud && deps.chunkedUploads ? uploadsBaseOf(rawPath) : undefined;
    const base = uploadsBase ?? (nextcloud ? nextcloudBaseOf(rawPath) : PLAIN_VIEW.base);
    if (base === undefined) throw AppError.notFound('not a WebDAV address: use /remote.php/dav/files/<user>/');
    const path = davPathOf(rawPath, base) as string;
    if (method === 'OPTIONS') {
      c.header('Allow', METHODS);
      c.header('Accept-Ranges', 'bytes');
      return c.body(null, 200);
    }
    const principal = await davAuth.authenticate(c.req.header('authorization'), c.var.clientAddress);
    c.set('principal', principal);
    const handler = davHandlers[method];
    if (!handler) {
      c.header('Allow', METHODS);
      throw new AppError('METHOD_NOT_ALLOWED', `${method} is not supported`);
    }
    const view: DavView = nextcloud ? { base, oc: { writable: webdav.mayWrite(principal) } } : PLAIN_VIEW;
    const req = new DavRequest(c, method, path, principal, view, deps.publicUrl);
    if (uploadsBase && deps.chunkedUploads) return chunkedUpload(req, deps.chunkedUploads);
    return handler(req, { webdav });
  };

  return new Hono<AppEnv>()
    .all('/', handle)
    .all('/*', handle)
    .onError((error, c) => {
      if (!(error instanceof AppError)) {
        deps.logger.error(`webdav ${c.req.method} failed`, error);
        return xmlResponse(c as Ctx, errorReply('internal error'), 500);
      }
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      const status = davStatusOf(error);
      return xmlResponse(
        c as Ctx,
        errorReply(error.message, status === 423 ? 'lock-token-submitted' : undefined),
        status,
      );
    });
}
