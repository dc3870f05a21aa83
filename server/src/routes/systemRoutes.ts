import { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import type { SystemService } from '../services/systemService.js';

export function systemRoutes(deps: { system: SystemService }) {
  return new Hono<AppEnv>()
    .get('/version', (c) => ok(c, deps.system.version()))
    .get('/health', async (c) => ok(c, await deps.system.health()));
}
