// What Nextcloud's and ownCloud's desktop and phone apps ask before they use the tree over WebDAV: the server's
// status, its capabilities and who the signed-in user is (OCS). The tree itself is davRoutes' `nextcloud` flavour.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/env.js';
import type { Principal } from '../auth/principal.js';
import type { DavAuth } from '../webdav/davAuth.js';
import { WWW_AUTHENTICATE } from '../webdav/davAuth.js';
import { AppError } from '../errors.js';

/** The Nextcloud release whose APIs these answers follow (clients check it is recent enough). */
const COMPAT = { major: 28, minor: 0, micro: 0, string: '28.0.0' };

/** status.php: installed, not in maintenance, the version clients compare against. */
export function nextcloudStatus(productName: string) {
  return {
    installed: true,
    maintenance: false,
    needsDbUpgrade: false,
    version: `${COMPAT.string}.0`,
    versionstring: COMPAT.string,
    edition: '',
    productname: productName,
    extendedSupport: false,
  };
}

function capabilities() {
  return {
    version: { ...COMPAT, edition: '', extendedSupport: false },
    capabilities: {
      core: { pollinterval: 60, 'webdav-root': 'remote.php/webdav' },
      dav: { bulkupload: '', chunking: '1.0' },
      files: { bigfilechunking: false, undelete: false, versioning: false },
    },
  };
}

/** The OCS user id of a caller: the admin's name, or the key's id (never the key itself: it would sit in URLs). */
export function ocsUserId(principal: Principal): string {
  return principal.type === 'admin' ? principal.username : `key-${principal.keyId}`;
}

/** An OCS answer, JSON when asked (`format=json` or an Accept of JSON), else XML; v1 says 100, v2 200. */
function ocs(c: Context<AppEnv>, version: 1 | 2, data: unknown, status = 200, message = 'OK') {
  const code = status === 200 ? (version === 1 ? 100 : 200) : status;
  const meta = { status: status === 200 ? 'ok' : 'failure', statuscode: code, message };
  const wantsJson = c.req.query('format') === 'json' || /json/.test(c.req.header('accept') ?? '');
  if (wantsJson) return c.json({ ocs: { meta, data } }, (version === 1 ? 200 : status) as 200);
  const xml = (value: unknown, name: string): string => {
    if (value === null || value === undefined) return `<${name}/>`;
    if (typeof value !== 'object')
      return `<${name}>${String(value).replace(/[<>&]/g, (ch) => `&#${ch.charCodeAt(0)};`)}</${name}>`;
    return `<${name}>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => xml(v, k))
      .join('')}</${name}>`;
  };
  c.header('Content-Type', 'application/xml; charset=utf-8');
  return c.body(`<?xml version="1.0"?>\n${xml({ meta, data }, 'ocs')}`, (version === 1 ? 200 : status) as 200);
}

export function nextcloudRoutes(deps: { davAuth: DavAuth; productName: () => Promise<string> }) {
  const app = new Hono<AppEnv>();
  const status = async (c: Context<AppEnv>) => c.json(nextcloudStatus(await deps.productName()));
  app.get('/status.php', status);
  app.get('/nextcloud/status.php', status);
  app.get('/owncloud/status.php', status);

  const signedIn = async (c: Context<AppEnv>) => {
    try {
      return await deps.davAuth.authenticate(c.req.header('authorization'), c.var.clientAddress);
    } catch (error) {
      if (error instanceof AppError && error.status === 401) c.header('WWW-Authenticate', WWW_AUTHENTICATE);
      throw error;
    }
  };
  for (const version of [1, 2] as const) {
    const prefix = `/ocs/v${version === 1 ? '1' : '2'}.php`;
    // Capabilities are public in Nextcloud (clients ask before signing in).
    app.get(`${prefix}/cloud/capabilities`, (c) => ocs(c, version, capabilities()));
    app.get(`${prefix}/cloud/user`, async (c) => {
      const principal = await signedIn(c);
      const id = ocsUserId(principal);
      const name = principal.type === 'admin' ? principal.username : principal.name;
      return ocs(c, version, { id, 'display-name': name, displayname: name, email: null });
    });
  }
  return app;
}
