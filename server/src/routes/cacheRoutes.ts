import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import type { CacheRegistry } from '../services/admin/cacheRegistry.js';

export function cacheRoutes(deps: { caches: CacheRegistry; guard: Guard }) {
  const { caches, guard } = deps;
  return new Hono<AppEnv>()
    .get('/admin/cache/stats', async (c) => {
      await guard.admin(c);
      return ok(c, caches.stats());
    })
    .post('/admin/cache/clear', async (c) => {
      await guard.admin(c);
      return ok(c, { cleared: caches.clearAll() }, { message: 'cache cleared' });
    })
    .post('/user/cache/clear', async (c) => {
      const principal = await guard.authenticated(c);
      const cleared = principal.type === 'admin' ? caches.clearAll() : caches.clearUnder(principal.basicPath);
      return ok(c, { cleared }, { message: 'cache cleared' });
    });
}
