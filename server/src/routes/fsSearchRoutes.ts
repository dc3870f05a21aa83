import { Permission, searchQuerySchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readQuery } from '../http/input.js';
import type { SearchService } from '../services/fs/search/searchService.js';

/** GET /api/fs/search (docs/api/fs-tasks.md "Search"). */
export function fsSearchRoutes(deps: { search: SearchService; guard: Guard }) {
  const { search, guard } = deps;
  return new Hono<AppEnv>().get('/search', async (c) => {
    const principal = await guard.permission(c, Permission.MOUNT_VIEW, 'mount_view');
    return ok(c, await search.search(principal, readQuery(c, searchQuerySchema)));
  });
}
