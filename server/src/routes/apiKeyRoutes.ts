import { createApiKeySchema, updateApiKeySchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { ApiKeyService } from '../services/auth/apiKeyService.js';

export function apiKeyRoutes(deps: { apiKeys: ApiKeyService; guard: Guard }) {
  const { apiKeys, guard } = deps;
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      await guard.admin(c);
      return ok(c, await apiKeys.list());
    })
    .post('/', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, createApiKeySchema);
      return ok(c, await apiKeys.create(input), { status: 201, message: 'API key created' });
    })
    .put('/:id', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, updateApiKeySchema);
      return ok(c, await apiKeys.update(c.req.param('id'), input), { message: 'API key updated' });
    })
    .delete('/:id', async (c) => {
      await guard.admin(c);
      await apiKeys.remove(c.req.param('id'));
      return ok(c, undefined, { message: 'API key deleted' });
    });
}
