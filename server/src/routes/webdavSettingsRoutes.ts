// The WebDAV settings page's server side: where clients connect, and a live check of what an
// identity (the admin, or an API key) sees at /dav/.
import {
  Permission,
  hasPermission,
  webdavCheckSchema,
  webdavLockIdSchema,
  blockedAddressIdSchema,
  type BlockedAddressView,
  type ListPage,
  type WebdavCheckResult,
  type WebdavLockView,
} from '@clipnest/contract';
import { AppError } from '../errors.js';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { Principal } from '../auth/principal.js';
import type { DavAuth } from '../webdav/davAuth.js';
import type { SecretAttemptLimiter } from '../services/auth/secretAttemptLimiter.js';
import type { WebdavService } from '../webdav/webdavService.js';
import { hrefOf } from '../webdav/davReplies.js';

export function webdavSettingsRoutes(deps: {
  webdav: WebdavService;
  davAuth: DavAuth;
  secretAttempts: Pick<SecretAttemptLimiter, 'blocked' | 'unblock'>;
  guard: Guard;
  publicUrl?: string;
}) {
  const { webdav, davAuth, guard } = deps;
  return (
    new Hono<AppEnv>()
      .get('/', async (c) => {
        const admin = await guard.admin(c);
        return ok(c, { public_url: deps.publicUrl ?? null, admin_username: admin.username });
      })
      .post('/check', async (c) => {
        const admin = await guard.admin(c);
        const input = await readJson(c, webdavCheckSchema, { maxBytes: 4096 });
        let principal: Principal = admin;
        if (input.identity === 'apikey') {
          const found = await davAuth.identifyKey(input.key);
          if (!found.principal) return ok(c, { problem: found.problem, entries: [] } satisfies WebdavCheckResult);
          principal = found.principal;
        }
        const { entries, emptyReason } = await webdav.topLevel(principal);
        const result: WebdavCheckResult = {
          identity:
            principal.type === 'admin'
              ? { type: 'admin', name: principal.username, basic_path: '/', can_write: true }
              : {
                  type: 'apikey',
                  name: principal.name,
                  basic_path: principal.basicPath || '/',
                  can_write: hasPermission(principal.permissions, Permission.WEBDAV_MANAGE),
                },
          entries: entries.map((e) => ({ name: e.name, href: hrefOf(e.path, e.isDir), is_dir: e.isDir })),
          ...(emptyReason ? { empty_reason: emptyReason } : {}),
        };
        return ok(c, result);
      })
      // Locks held over WebDAV: the admin sees them all and breaks any (the escape hatch for a forgotten one).
      .get('/locks', async (c) => {
        await guard.admin(c);
        const items = await webdav.listLocks();
        return ok(c, { items, total: items.length, limit: items.length, offset: 0 } satisfies ListPage<WebdavLockView>);
      })
      .delete('/locks/:id', async (c) => {
        await guard.admin(c);
        const id = webdavLockIdSchema.safeParse(c.req.param('id'));
        if (!id.success) throw AppError.notFound(`no lock ${JSON.stringify(c.req.param('id'))} is held`);
        await webdav.breakLock(id.data);
        return ok(c, undefined, { message: 'lock broken' });
      })
      // Addresses the secret-attempt limiter refuses now (10 wrong secrets in 15 minutes), at any door; clearing
      // one lets it try again at once.
      .get('/blocked', async (c) => {
        await guard.admin(c);
        const items = await deps.secretAttempts.blocked();
        const page: ListPage<BlockedAddressView> = { items, total: items.length, limit: items.length, offset: 0 };
        return ok(c, page);
      })
      .delete('/blocked/:id', async (c) => {
        await guard.admin(c);
        const id = blockedAddressIdSchema.safeParse(c.req.param('id'));
        if (!id.success) throw AppError.notFound('this address is not blocked (any more)');
        await deps.secretAttempts.unblock(id.data);
        return ok(c, undefined, { message: 'address unblocked' });
      })
  );
}
