import {
  Permission,
  createStorageConfigSchema,
  storageConfigListQuerySchema,
  updateStorageConfigSchema,
} from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import type { StorageConfigService } from '../services/storageConfigs/storageConfigService.js';

/**
 * /api/s3-configs: admin only (spec §6: storage config is an admin page), except the list, which key holders
 * with FILE_SHARE may read to pick an upload target: they get names and capacity, no connection details.
 */
export function storageConfigRoutes(deps: { storageConfigs: StorageConfigService; guard: Guard }) {
  const { storageConfigs, guard } = deps;
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const principal = await guard.permission(c, Permission.FILE_SHARE, 'file share');
      const { page, limit } = readQuery(c, storageConfigListQuerySchema);
      return ok(c, await storageConfigs.list(page, limit, principal.type === 'admin'));
    })
    .post('/', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, createStorageConfigSchema);
      return ok(c, await storageConfigs.create(input), { status: 201, message: 'storage config created' });
    })
    .get('/:id', async (c) => {
      await guard.admin(c);
      return ok(c, await storageConfigs.get(c.req.param('id')));
    })
    .put('/:id/set-default', async (c) => {
      await guard.admin(c);
      return ok(c, await storageConfigs.setDefault(c.req.param('id')), { message: 'default storage config set' });
    })
    .post('/:id/test', async (c) => {
      await guard.admin(c);
      // The CORS probe claims the origin the admin uses: this page's Origin (else PUBLIC_URL, else our host).
      const result = await storageConfigs.test(c.req.param('id'), c.req.header('origin'), c.req.url);
      return ok(c, result, { message: result.success ? 'storage test passed' : 'storage test failed' });
    })
    .put('/:id', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, updateStorageConfigSchema);
      return ok(c, await storageConfigs.update(c.req.param('id'), input), { message: 'storage config updated' });
    })
    .delete('/:id', async (c) => {
      await guard.admin(c);
      await storageConfigs.remove(c.req.param('id'));
      return ok(c, undefined, { message: 'storage config deleted' });
    });
}
