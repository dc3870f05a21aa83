import { createMountSchema, updateMountSchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { MountService } from '../services/storageConfigs/mountService.js';

/**
 * /api/mount: the list for the admin and for key holders with a mount permission (only the mounts their
 * basic_path reaches); creating, editing and deleting mounts is for the admin only (spec §6: key holders
 * cannot create, delete or change the status of mounts).
 */
export function mountRoutes(deps: { mounts: MountService; guard: Guard }) {
  const { mounts, guard } = deps;
  return new Hono<AppEnv>()
    .get('/list', async (c) => ok(c, await mounts.list(await guard.authenticated(c))))
    .post('/create', async (c) => {
      const admin = await guard.admin(c);
      const input = await readJson(c, createMountSchema);
      return ok(c, await mounts.create(admin, input), { status: 201, message: 'mount created' });
    })
    .put('/:id', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, updateMountSchema);
      return ok(c, await mounts.update(c.req.param('id'), input), { message: 'mount updated' });
    })
    .delete('/:id', async (c) => {
      await guard.admin(c);
      await mounts.remove(c.req.param('id'));
      return ok(c, undefined, { message: 'mount deleted' });
    });
}
