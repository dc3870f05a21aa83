import { Hono } from 'hono';
import { z } from 'zod';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readQuery } from '../http/input.js';
import type { DashboardService } from '../services/admin/dashboardService.js';

export function dashboardRoutes(deps: { dashboard: DashboardService; guard: Guard }) {
  const { dashboard, guard } = deps;
  return new Hono<AppEnv>().get('/stats', async (c) => {
    await guard.admin(c);
    const { fresh } = readQuery(c, z.object({ fresh: z.enum(['0', '1', 'true', 'false']).optional() }));
    return ok(c, await dashboard.stats({ fresh: fresh === '1' || fresh === 'true' }));
  });
}
