import { SHAREX_KINDS, type SharexKind } from '@clipnest/contract';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import { requestOrigin } from '../http/clientAddress.js';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/requestHeader.js';
import { sharexUploader } from '../services/admin/integrations/sharexConfig.js';
import type { SettingsService } from '../services/admin/settingsService.js';

/** GET /api/integrations/sharex?kind=file|text: a ShareX uploader (.sxcu) for the calling API key. */
export function integrationRoutes(deps: {
  guard: Guard;
  settings: SettingsService;
  trustProxy: boolean;
  publicUrl?: string;
}) {
  return new Hono<AppEnv>().get('/sharex', async (c) => {
    const principal = await deps.guard.apiKey(c);
    const kind = c.req.query('kind') ?? 'file';
    if (!SHAREX_KINDS.includes(kind as SharexKind)) {
      throw AppError.validation(`kind must be one of ${SHAREX_KINDS.join(', ')}`, [
        { path: 'kind', message: `must be one of ${SHAREX_KINDS.join(', ')}` },
      ]);
    }
    const apiKey = /^ApiKey\s+(\S+)$/i.exec(requestHeader(c, 'authorization')?.trim() ?? '')?.[1] ?? '';
    const uploader = sharexUploader({
      kind: kind as SharexKind,
      origin: requestOrigin(c, deps.trustProxy, deps.publicUrl),
      siteTitle: (await deps.settings.site()).site_title,
      apiKey,
      principal,
    });
    return c.body(`${JSON.stringify(uploader, null, 2)}\n`, 200, {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="clipnest-${kind}.sxcu"`,
      // It holds the key.
      'cache-control': 'no-store',
    });
  });
}
