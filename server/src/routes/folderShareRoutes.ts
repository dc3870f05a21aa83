import {
  createShareSchema,
  SHARE_PASSWORD_HEADER,
  shareManageListQuerySchema,
  sharePublicQuerySchema,
} from '@clipnest/contract';
import { Hono, type Context } from 'hono';
import type { Guard } from '../http/auth.js';
import { contentDisposition } from '../http/contentDisposition.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import { conditionalFrom, replyContent } from '../http/replyContent.js';
import type { FolderShareService, ShareAccess } from '../services/shares/folderShareService.js';

function accessOf(c: Context<AppEnv>, q: { password?: string | undefined; token?: string | undefined }): ShareAccess {
  return {
    password: c.req.header(SHARE_PASSWORD_HEADER) ?? q.password,
    token: q.token,
    client: c.var.clientAddress,
  };
}

/**
 * /api/shares (docs/api/shares.md): folder shares. Creating and managing need credentials; the slug routes are
 * public (the password as `X-Share-Password` or `?password=`, or the info answer's token as `?token=`).
 */
export function folderShareRoutes(deps: { folderShares: FolderShareService; guard: Guard }) {
  const { folderShares: shares, guard } = deps;
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const principal = await guard.authenticated(c);
      const input = await readJson(c, createShareSchema, { maxBytes: 64 * 1024 });
      return ok(c, await shares.create(principal, input), { status: 201, message: 'share created' });
    })
    .get('/', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await shares.listOwned(principal, readQuery(c, shareManageListQuerySchema)));
    })
    .delete('/:id', async (c) => {
      const principal = await guard.authenticated(c);
      await shares.remove(principal, c.req.param('id'));
      return ok(c, undefined, { message: 'share deleted' });
    })
    .get('/:slug', async (c) => {
      if (c.req.method === 'HEAD') {
        await shares.peek(c.req.param('slug'));
        return ok(c);
      }
      const q = readQuery(c, sharePublicQuerySchema);
      return ok(c, await shares.info(c.req.param('slug'), accessOf(c, q)));
    })
    .get('/:slug/list', async (c) => {
      const q = readQuery(c, sharePublicQuerySchema);
      return ok(c, await shares.list(c.req.param('slug'), q.path, accessOf(c, q), q));
    })
    .on(['GET', 'HEAD'], '/:slug/file', async (c) => {
      const q = readQuery(c, sharePublicQuerySchema);
      const result = await shares.file(c.req.param('slug'), q.path, accessOf(c, q), {
        mode: q.download ? 'attachment' : 'inline',
        head: c.req.method === 'HEAD',
        conditional: conditionalFrom(c),
      });
      return replyContent(c, result);
    })
    .get('/:slug/zip', async (c) => {
      const q = readQuery(c, sharePublicQuerySchema);
      const zip = await shares.zip(c.req.param('slug'), q.path, accessOf(c, q));
      return new Response(zip.open(), {
        status: 200,
        headers: {
          'Content-Type': 'application/zip',
          'Content-Length': zip.length.toString(),
          'Content-Disposition': contentDisposition('attachment', zip.filename),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    });
}
