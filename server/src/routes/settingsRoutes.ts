import { createHash } from 'node:crypto';
import { SettingGroup, isSettingGroupId, type SettingGroupId } from '@clipnest/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { etagMatches } from '../http/range.js';
import { requestHeader } from '../http/requestHeader.js';
import { readJson, readQuery } from '../http/input.js';
import type { SettingsService } from '../services/admin/settingsService.js';

function parseGroup(raw: string | undefined): SettingGroupId {
  const group = Number(raw);
  if (!isSettingGroupId(group))
    throw AppError.validation(`unknown settings group ${JSON.stringify(raw)}: use 1, 2, 3 or 4`);
  return group;
}

const listQuery = z.object({
  group: z.string().optional(),
  metadata: z.string().optional(),
  includeSystem: z.string().optional(),
});

export function settingsRoutes(deps: { settings: SettingsService; guard: Guard }) {
  const { settings, guard } = deps;
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const query = readQuery(c, listQuery);
      const group = query.group === undefined ? undefined : parseGroup(query.group);
      // The site group is public: the web shell reads it before anyone logs in.
      if (group !== SettingGroup.SITE) await guard.admin(c);
      return ok(c, await settings.list(group));
    })
    .get('/groups', async (c) => {
      await guard.admin(c);
      return ok(c, settings.groups());
    })
    .get('/metadata', async (c) => {
      await guard.admin(c);
      const { key } = readQuery(c, z.object({ key: z.string({ error: 'key is required' }).min(1, 'key is required') }));
      return ok(c, await settings.metadata(key));
    })
    .put('/group/:group', async (c) => {
      await guard.admin(c);
      const group = parseGroup(c.req.param('group'));
      const { validate } = readQuery(c, z.object({ validate: z.enum(['true', 'false']).optional() }));
      const input = await readJson(
        c,
        z.record(z.string(), z.unknown(), { error: 'the body must be an object of key: value' }),
      );
      return ok(c, await settings.updateGroup(group, input, validate !== 'false'), { message: 'settings saved' });
    });
}

export function publicSettingsRoutes(deps: { settings: SettingsService }) {
  return new Hono<AppEnv>()
    .get('/site-settings', async (c) => {
      // Revalidated on every page load (the web app keeps a copy for its first paint): an ETag of the settings
      // makes that a 304 without a body while nothing changed, and a changed title or footer arrives at once.
      const site = await deps.settings.site();
      const etag = `"${createHash('sha256').update(JSON.stringify(site)).digest('base64url').slice(0, 22)}"`;
      c.header('Cache-Control', 'no-cache');
      c.header('ETag', etag);
      if (etagMatches(requestHeader(c, 'if-none-match'), etag)) return c.body(null, 304);
      return ok(c, site);
    })
    .get('/preview-settings', async (c) => {
      // The extension lists the web decides e-book, subtitle and HLS previews by: not secret, short-lived cache.
      c.header('Cache-Control', 'public, max-age=60');
      return ok(c, await deps.settings.previewTypes());
    });
}
