import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { normalizeVirtualPath } from '@clipnest/contract';
import { appShellRenderer, type AppShell, type ShellHead } from './appShellCsp.js';
import { compress } from './compressJson.js';
import { pickEncoding, type ContentCoding } from './encoding.js';

/** What the build precompresses beside each text asset (`app.js.br`, `app.js.gz`). */
const PRECOMPRESSED: Record<ContentCoding, string> = { br: '.br', gzip: '.gz' };

const HTML_CODINGS: readonly ContentCoding[] = ['br', 'gzip'];

/** The sizes of this file's precompressed siblings, brotli first. */
async function precompressedSizes(file: string): Promise<Map<ContentCoding, number>> {
  const codings = Object.keys(PRECOMPRESSED) as ContentCoding[];
  const sizes = await Promise.all(
    codings.map((coding) =>
      stat(file + PRECOMPRESSED[coding]).then(
        (s) => (s.isFile() ? s.size : -1),
        () => -1,
      ),
    ),
  );
  return new Map(codings.flatMap((coding, i) => (sizes[i]! >= 0 ? [[coding, sizes[i]!] as const] : [])));
}

export interface WebAppOptions {
  /**
   * What a GET of the shell adds to its `<head>` (link previews: http/linkPreview.ts). It never throws; undefined:
   * nothing.
   */
  head?: (c: Context) => Promise<ShellHead | undefined>;
}

/**
 * Serves the built SPA: real files from `distDir`, `index.html` for every other path
 * so client-side routes survive a reload.
 */
export function createWebAppHandler(distDir: string, options: WebAppOptions = {}) {
  const indexFile = path.join(distDir, 'index.html');
  let indexHtml: Promise<(head?: ShellHead) => AppShell> | undefined;

  return async (c: Context) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' });
    }
    const requested = normalizeVirtualPath(c.req.path, { decode: true });
    // index.html itself (the service worker precaches it) always goes through the shell: nonce and CSP.
    if (requested && requested !== '/' && requested !== '/index.html') {
      const file = path.join(distDir, requested);
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const immutable = requested.startsWith('/assets/');
        c.header('Content-Type', getMimeType(file) ?? 'application/octet-stream');
        c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // Text assets are precompressed at build time (web/compressAssets.ts): sent as the client accepts.
        const variants = await precompressedSizes(file);
        const coding = pickEncoding(c.req.header('Accept-Encoding'), [...variants.keys()]);
        if (variants.size > 0) c.header('Vary', 'Accept-Encoding');
        if (coding) c.header('Content-Encoding', coding);
        const sent = coding ? file + PRECOMPRESSED[coding] : file;
        c.header('Content-Length', String(coding ? variants.get(coding) : info.size));
        if (c.req.method === 'HEAD') return c.body(null, 200);
        return c.body(Readable.toWeb(createReadStream(sent)) as ReadableStream<Uint8Array>, 200);
      }
      // A missing asset is a 404, not the SPA: a stale hashed bundle must not be answered with HTML. The
      // explorer's URLs carry folder and file names of the tree (`/mount-explorer/photos/v1.2`): those are routes.
      if (/\.[a-z0-9]{1,8}$/i.test(requested) && !requested.startsWith('/mount-explorer/')) {
        return c.text('Not Found', 404);
      }
    }
    indexHtml ??= readFile(indexFile, 'utf8').then(appShellRenderer, (error: unknown) => {
      indexHtml = undefined;
      throw error;
    });
    const head = c.req.method === 'GET' && options.head ? await options.head(c).catch(() => undefined) : undefined;
    try {
      const shell = (await indexHtml)(head);
      c.header('Cache-Control', 'no-cache');
      c.header('Content-Security-Policy', shell.csp);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
      // The page carries a fresh nonce each time, so it is compressed per answer (a few KB: microseconds).
      c.header('Vary', 'Accept-Encoding');
      const coding = pickEncoding(c.req.header('Accept-Encoding'), HTML_CODINGS);
      if (!coding) return c.html(shell.html);
      c.header('Content-Type', 'text/html; charset=UTF-8');
      c.header('Content-Encoding', coding);
      return c.body(new Uint8Array(compress(coding, Buffer.from(shell.html))), 200);
    } catch {
      return c.text('The web app is not built yet: run `npm run build` (npm start does this for you).', 503);
    }
  };
}
