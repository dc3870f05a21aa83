import { Hono } from 'hono';
import { sendJson } from '../http/compressJson.js';
import type { AppEnv } from '../http/env.js';
import { buildOpenApiDocument } from '../http/openapi/document.js';
import { allOperations } from '../http/openapi/operations/index.js';
import type { SettingsService } from '../services/admin/settingsService.js';

/** GET /api/openapi.json: the OpenAPI 3.1 document of /api, built once per site title. */
export function openapiRoutes(deps: { settings: SettingsService; version: string }) {
  let built: { title: string; document: object } | undefined;
  return new Hono<AppEnv>().get('/openapi.json', async (c) => {
    const { site_title: title } = await deps.settings.site();
    if (built?.title !== title) {
      built = { title, document: buildOpenApiDocument(allOperations(), { title, version: deps.version }) };
    }
    c.header('Cache-Control', 'no-cache');
    return sendJson(c, built.document, 200);
  });
}
