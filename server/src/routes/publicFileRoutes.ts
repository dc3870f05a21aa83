import { verifyFilePasswordSchema } from '@clipnest/contract';
import { Hono, type Context } from 'hono';
import { requestOrigin } from '../http/clientAddress.js';
import type { AppEnv } from '../http/env.js';
import { contentDisposition } from '../http/contentDisposition.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import { fileBody } from '../http/sendfileEdge.js';
import { etagMatches, ifRangeAllows, parseRange } from '../http/range.js';
import type { ContentMode, FileService } from '../services/fileService.js';

/** Public share endpoints: metadata, password check, content (inline / attachment), office preview. */
export function publicFileRoutes(deps: { files: FileService; trustProxy: boolean }) {
  const { files } = deps;

  const serve = (mode: ContentMode) => async (c: Context<AppEnv>) => {
    const rangeHeader = c.req.header('range');
    const result = await files.content({
      slug: c.req.param('slug') ?? '',
      mode,
      token: c.req.query('token'),
      password: c.req.query('password'),
      client: c.var.clientAddress,
      head: c.req.method === 'HEAD',
      conditional: ({ etag, lastModified, size }) => {
        const notModified = etagMatches(c.req.header('if-none-match'), etag);
        const useRange = rangeHeader !== undefined && ifRangeAllows(c.req.header('if-range'), etag, lastModified);
        return { notModified, range: useRange ? parseRange(rangeHeader, size) : undefined };
      },
    });
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Cache-Control', 'private, no-cache');
    if (result.kind === 'redirect') {
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      return c.redirect(result.url, 302);
    }
    if (result.kind === 'not_modified') {
      c.header('ETag', result.etag);
      c.header('Last-Modified', result.lastModified.toUTCString());
      return c.body(null, 304);
    }
    if (result.kind === 'unsatisfiable') {
      c.header('Content-Range', `bytes */${result.size}`);
      return c.json({ code: 416, message: 'requested range not satisfiable', success: false }, 416);
    }
    const { policy, disposition } = result;
    c.header(
      'Content-Type',
      disposition === 'inline' ? policy.contentType : policy.sandbox ? 'application/octet-stream' : policy.contentType,
    );
    c.header('Content-Disposition', contentDisposition(disposition, result.filename));
    if (policy.sandbox) c.header('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'");
    c.header('ETag', result.etag);
    c.header('Last-Modified', result.lastModified.toUTCString());
    c.header('Accept-Ranges', 'bytes');
    if (result.kind === 'head') {
      const { range, size } = result;
      c.header('Content-Length', String(range ? range.end - range.start + 1 : size));
      if (range) c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      return c.body(null, range ? 206 : 200);
    }
    const { read } = result;
    c.header('Content-Length', String(read.contentLength));
    if (read.range) {
      c.header('Content-Range', `bytes ${read.range.start}-${read.range.end}/${read.size}`);
      return fileBody(c, read.stream, 206);
    }
    return fileBody(c, read.stream, 200);
  };

  return new Hono<AppEnv>()
    .get('/public/files/:slug', async (c) => {
      // Hono answers HEAD with the GET route: a HEAD must not use up a view.
      if (c.req.method === 'HEAD') {
        await files.peek(c.req.param('slug'));
        return ok(c);
      }
      return ok(c, await files.publicInfo(c.req.param('slug')));
    })
    .post('/public/files/:slug/verify', async (c) => {
      const { password } = await readJson(c, verifyFilePasswordSchema, { maxBytes: 16 * 1024 });
      return ok(c, await files.verify(c.req.param('slug'), password, c.var.clientAddress), {
        message: 'password verified',
      });
    })
    .get('/file-download/:slug', serve('attachment'))
    .get('/file-view/:slug', serve('inline'))
    .get('/office-preview/:slug', async (c) => {
      if (c.req.method === 'HEAD') {
        await files.peek(c.req.param('slug'));
        return ok(c);
      }
      return ok(
        c,
        await files.officePreview(
          c.req.param('slug'),
          { token: c.req.query('token'), password: c.req.query('password'), client: c.var.clientAddress },
          requestOrigin(c, deps.trustProxy),
        ),
      );
    });
}
