import { changePasswordSchema, loginSchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import { relyingParty } from '../http/relyingParty.js';
import { requestHeader } from '../http/requestHeader.js';
import type { ApiKeyService } from '../services/auth/apiKeyService.js';
import type { AuthService } from '../services/auth/authService.js';

export function authRoutes(deps: {
  auth: AuthService;
  apiKeys: ApiKeyService;
  guard: Guard;
  trustProxy: boolean;
  publicUrl?: string;
}) {
  const { auth, apiKeys, guard } = deps;
  return new Hono<AppEnv>()
    .post('/admin/login', async (c) => {
      const input = await readJson(c, loginSchema, { maxBytes: 16 * 1024 });
      const result = await auth.login(input, {
        client: c.var.clientAddress,
        userAgent: requestHeader(c, 'user-agent'),
        rp: relyingParty(c, deps.trustProxy, deps.publicUrl),
      });
      return ok(c, result, { message: 'logged in' });
    })
    .post('/admin/logout', async (c) => {
      await auth.logout(await guard.admin(c));
      return ok(c, undefined, { message: 'logged out' });
    })
    .get('/test/admin-token', async (c) =>
      ok(c, auth.describeToken(await guard.admin(c)), { message: 'token is valid' }),
    )
    .post('/admin/change-password', async (c) => {
      const principal = await guard.admin(c);
      const input = await readJson(c, changePasswordSchema, { maxBytes: 16 * 1024 });
      const result = await auth.changeCredentials(principal, input, c.var.clientAddress);
      return ok(c, result, { message: 'account updated: every other sign-in ended' });
    })
    .get('/test/api-key', async (c) => ok(c, apiKeys.describe(await guard.apiKey(c)), { message: 'API key is valid' }));
}
