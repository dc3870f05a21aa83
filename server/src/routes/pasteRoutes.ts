import {
  batchDeletePastesSchema,
  clearExpiredPastesSchema,
  createPasteSchema,
  listPastesQuerySchema,
  Permission,
  PasteMessages,
  unlockPasteSchema,
  updatePasteSchema,
} from '@clipnest/contract';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import type { PasteService } from '../services/pastes/pasteService.js';

const RAW_HEADERS = {
  'Content-Type': 'text/plain; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Content-Disposition': 'inline',
};

type Deps = { pastes: PasteService; guard: Guard };

/** Reads a create/update body allowing the paste limit (not the 1 MB default), with the spec's "too large" text. */
async function readPasteBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S, pastes: PasteService) {
  try {
    return await readJson(c, schema, { maxBytes: pastes.maxBodyBytes });
  } catch (error) {
    if (error instanceof AppError && error.kind === 'PAYLOAD_TOO_LARGE') {
      throw new AppError('PAYLOAD_TOO_LARGE', PasteMessages.contentTooLarge);
    }
    throw error;
  }
}

/** Public side, mounted at /api: create, view, unlock, raw. */
export function pasteRoutes({ pastes, guard }: Deps) {
  return new Hono<AppEnv>()
    .post('/paste', async (c) => {
      const principal = await guard.permission(c, Permission.TEXT, 'text');
      const input = await readPasteBody(c, createPasteSchema, pastes);
      return ok(c, await pastes.create(principal, input), { status: 201, message: 'paste created' });
    })
    .get('/paste/:slug', async (c) => {
      // Hono answers HEAD with the GET route: a HEAD must not use up a view.
      if (c.req.method === 'HEAD') {
        await pastes.peek(c.req.param('slug'));
        return ok(c);
      }
      return ok(c, await pastes.view(c.req.param('slug'), await guard.optional(c)));
    })
    .post('/paste/:slug', async (c) => {
      const principal = await guard.optional(c);
      const { password } = await readJson(c, unlockPasteSchema);
      return ok(c, await pastes.unlock(c.req.param('slug'), password, principal, c.var.clientAddress));
    })
    .get('/raw/:slug', async (c) => {
      if (c.req.method === 'HEAD') {
        await pastes.peek(c.req.param('slug'));
        return c.body(null, 200, RAW_HEADERS);
      }
      const principal = await guard.optional(c);
      const view = await pastes.unlock(c.req.param('slug'), c.req.query('password'), principal, c.var.clientAddress);
      return c.body(view.content, 200, RAW_HEADERS);
    });
}

/** Management, mounted at /api/pastes: TEXT permission or admin; key holders see only their own. */
export function pasteAdminRoutes({ pastes, guard }: Deps) {
  const text = (c: Context<AppEnv>) => guard.permission(c, Permission.TEXT, 'text');
  const batchDelete = async (c: Context<AppEnv>) => {
    const principal = await text(c);
    const { ids } = await readJson(c, batchDeletePastesSchema);
    const result = await pastes.batchDelete(principal, ids);
    return ok(c, result, { message: `${result.deleted} paste(s) deleted` });
  };
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const principal = await text(c);
      return ok(c, await pastes.list(principal, readQuery(c, listPastesQuerySchema)));
    })
    .delete('/batch-delete', batchDelete)
    .post('/batch-delete', batchDelete)
    .post('/clear-expired', async (c) => {
      const principal = await text(c);
      await readJson(c, clearExpiredPastesSchema);
      const result = await pastes.clearExpired(principal);
      return ok(c, result, { message: `${result.deleted} expired paste(s) cleared` });
    })
    .get('/:id', async (c) => {
      const principal = await text(c);
      return ok(c, await pastes.get(principal, c.req.param('id')));
    })
    .put('/:id', async (c) => {
      const principal = await text(c);
      const input = await readPasteBody(c, updatePasteSchema, pastes);
      return ok(c, await pastes.update(principal, c.req.param('id'), input), { message: 'paste updated' });
    })
    .delete('/:id', async (c) => {
      const principal = await text(c);
      const { deleted } = await pastes.batchDelete(principal, [c.req.param('id')]);
      if (deleted === 0) throw AppError.notFound(PasteMessages.notFound);
      return ok(c, undefined, { message: 'paste deleted' });
    });
}
