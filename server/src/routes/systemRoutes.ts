import { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { ok, replyError } from '../http/envelope.js';
import type { SystemService } from '../services/admin/systemService.js';

export function systemRoutes(deps: { system: SystemService }) {
  return new Hono<AppEnv>()
    .get('/version', (c) => ok(c, deps.system.version()))
    .get('/health', async (c) => ok(c, await deps.system.health()))
    .get('/health/ready', async (c) => {
      const ready = await deps.system.readiness();
      if (ready.status !== 'unavailable') return ok(c, ready);
      const why = ready.stopping ? 'this instance is stopping' : 'the database is not reachable';
      return replyError(c, 'UNAVAILABLE', why, ready);
    });
}
