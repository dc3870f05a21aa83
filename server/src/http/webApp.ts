import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { normalizeVirtualPath } from '@clipnest/contract';

/**
 * Serves the built SPA: real files from `distDir`, `index.html` for every other path
 * so client-side routes survive a reload.
 */
export function createWebAppHandler(distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: Promise<string> | undefined;

  return async (c: Context) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' });
    }
    const requested = normalizeVirtualPath(c.req.path, { decode: true });
    if (requested && requested !== '/') {
      const file = path.join(distDir, requested);
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const immutable = requested.startsWith('/assets/');
        c.header('Content-Type', getMimeType(file) ?? 'application/octet-stream');
        c.header('Content-Length', String(info.size));
        c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (c.req.method === 'HEAD') return c.body(null, 200);
        return c.body(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, 200);
      }
      // A missing asset is a 404, not the SPA: a stale hashed bundle must not be answered with HTML.
      if (/\.[a-z0-9]{1,8}$/i.test(requested) && requested !== '/index.html') return c.text('Not Found', 404);
    }
    indexHtml ??= readFile(indexFile, 'utf8').catch((error: unknown) => {
      indexHtml = undefined;
      throw error;
    });
    try {
      const html = await indexHtml;
      c.header('Cache-Control', 'no-cache');
      return c.html(html);
    } catch {
      return c.text('The web app is not built yet: run `npm run build` (npm start does this for you).', 503);
    }
  };
}
