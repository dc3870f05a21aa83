// Login Flow v2 as the Nextcloud and ownCloud apps speak it (outside /api, at Nextcloud's addresses), and the admin's
// side of it under /api/admin/login-flows (the approval page at /connect/<token> calls these).
import { Hono, type Context } from 'hono';
import type { Guard } from '../http/auth.js';
import { requestOrigin } from '../http/clientAddress.js';
import { recordAudit } from '../http/auditTrail.js';
import type { AppEnv } from '../http/env.js';
import type { AuditLog } from '../services/admin/audit/auditLog.js';
import { ok } from '../http/envelope.js';
import type { LoginFlowService } from '../services/auth/loginFlowService.js';

/** Where the apps' browser goes: the web app's approval page. */
export function connectPath(loginToken: string): string {
  return `/connect/${encodeURIComponent(loginToken)}`;
}

/** A poll's body is one token: anything longer is not one. */
const POLL_BODY_MAX = 4096;

/** The poll token, from a form body (what the apps send), a JSON body or the query string. */
async function pollTokenOf(c: Context<AppEnv>): Promise<string> {
  const fromQuery = c.req.query('token');
  if (fromQuery) return fromQuery;
  const length = Number(c.req.header('content-length') ?? '0');
  if (!Number.isFinite(length) || length > POLL_BODY_MAX) return '';
  const text = (await c.req.text().catch(() => '')).slice(0, POLL_BODY_MAX);
  if (/json/i.test(c.req.header('content-type') ?? '')) {
    try {
      const body = JSON.parse(text) as { token?: unknown };
      return typeof body.token === 'string' ? body.token : '';
    } catch {
      return '';
    }
  }
  return new URLSearchParams(text).get('token') ?? '';
}

export function nextcloudLoginRoutes(deps: {
  loginFlows: LoginFlowService;
  audit: AuditLog;
  trustProxy: boolean;
  publicUrl?: string;
}) {
  const app = new Hono<AppEnv>();
  const origin = (c: Context<AppEnv>) => requestOrigin(c, deps.trustProxy, deps.publicUrl).replace(/\/+$/, '');
  for (const prefix of ['/index.php/login/v2', '/login/v2']) {
    app.post(prefix, async (c) => {
      const flow = await deps.loginFlows.start(c.req.header('user-agent'), c.var.clientAddress);
      const base = origin(c);
      c.header('Cache-Control', 'no-store');
      return c.json({
        poll: { token: flow.pollToken, endpoint: `${base}/index.php/login/v2/poll` },
        login: `${base}${connectPath(flow.loginToken)}`,
      });
    });
    app.post(`${prefix}/poll`, async (c) => {
      const found = await deps.loginFlows.poll(await pollTokenOf(c), c.var.clientAddress);
      c.header('Cache-Control', 'no-store');
      // Nextcloud answers 404 with an empty list until the flow is approved, and after it was collected.
      if (!found) return c.json([], 404);
      // The one moment an app password leaves the server: recorded with the key it is (never the password).
      recordAudit(deps.audit, c, { action: 'api_key.login_flow.collect', target: `id=${found.keyId}` });
      return c.json({ server: origin(c), loginName: found.loginName, appPassword: found.appPassword });
    });
    // Nextcloud's own browser address of a flow: the same page here.
    app.get(`${prefix}/flow/:token`, (c) => c.redirect(connectPath(c.req.param('token')), 302));
  }
  return app;
}

export function loginFlowRoutes(deps: { loginFlows: LoginFlowService; guard: Guard }) {
  const { loginFlows, guard } = deps;
  return new Hono<AppEnv>()
    .get('/:token', async (c) => {
      await guard.admin(c);
      return ok(c, await loginFlows.describe(c.req.param('token')));
    })
    .post('/:token/approve', async (c) => {
      await guard.admin(c);
      return ok(c, await loginFlows.approve(c.req.param('token')), { message: 'app signed in' });
    })
    .post('/:token/deny', async (c) => {
      await guard.admin(c);
      await loginFlows.deny(c.req.param('token'));
      return ok(c, undefined, { message: 'sign-in refused' });
    });
}
