import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import { API_DOCS_SCRIPT, API_DOCS_STYLES } from '../http/apiDocs/client.js';
import { API_DOCS_CSP, API_DOCS_PATH, apiDocsHtml } from '../http/apiDocs/page.js';
import { pickEncoding } from '../http/encoding.js';
import type { AppEnv } from '../http/env.js';
import type { SettingsService } from '../services/admin/settingsService.js';

const gzip = promisify(zlib.gzip);

interface Asset {
  type: string;
  /** The bytes, and their gzip, read and packed on first use. */
  load: () => Promise<Buffer>;
}

/** The files of swagger-ui-dist (a server dependency), found where Node resolves the package. */
function swaggerDist(file: string): () => Promise<Buffer> {
  return () => {
    const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    return readFile(path.join(dir, file));
  };
}

const ASSETS: Record<string, Asset> = {
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', load: swaggerDist('swagger-ui-bundle.js') },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: swaggerDist('swagger-ui.css') },
  'clipnest-api-docs.js': { type: 'text/javascript; charset=utf-8', load: async () => Buffer.from(API_DOCS_SCRIPT) },
  'clipnest-api-docs.css': { type: 'text/css; charset=utf-8', load: async () => Buffer.from(API_DOCS_STYLES) },
};

/**
 * /api-docs (mounted at the root): the API reference (Swagger UI over /api/openapi.json). Everything it loads comes from here; nothing
 * of it is part of the web app's bundle, so other pages never load it.
 */
export function apiDocsRoutes(deps: { settings: SettingsService; version: string }) {
  const packed = new Map<string, Promise<{ plain: Buffer; gzip: Buffer }>>();
  const assetOf = (name: string) => {
    let entry = packed.get(name);
    if (!entry) {
      const asset = ASSETS[name]!;
      entry = asset.load().then(async (plain) => ({ plain, gzip: await gzip(plain, { level: 9 }) }));
      entry.catch(() => packed.delete(name));
      packed.set(name, entry);
    }
    return entry;
  };
  const sendAsset = async (c: Context<AppEnv>) => {
    const name = c.req.param('file') ?? '';
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw AppError.notFound(`no such file: ${name}`);
    const { plain, gzip: packedBody } = await assetOf(name);
    const coding = pickEncoding(c.req.header('accept-encoding'), ['gzip']);
    const body = coding ? packedBody : plain;
    c.header('Content-Type', asset.type);
    c.header('Content-Length', String(body.byteLength));
    c.header('Vary', 'Accept-Encoding');
    c.header('X-Content-Type-Options', 'nosniff');
    // The page asks for ?v=<server version>: a new version is a new URL.
    c.header('Cache-Control', c.req.query('v') ? 'public, max-age=604800' : 'no-cache');
    if (coding) c.header('Content-Encoding', coding);
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(body), 200);
  };
  return new Hono<AppEnv>()
    .get(`${API_DOCS_PATH}/`, (c) => c.redirect(API_DOCS_PATH, 308))
    .get(API_DOCS_PATH, async (c) => {
      const { site_title } = await deps.settings.site();
      c.header('Content-Security-Policy', API_DOCS_CSP);
      c.header('Cache-Control', 'no-cache');
      c.header('X-Content-Type-Options', 'nosniff');
      return c.html(apiDocsHtml(site_title, deps.version));
    })
    .get(`${API_DOCS_PATH}/:file`, sendAsset);
}
