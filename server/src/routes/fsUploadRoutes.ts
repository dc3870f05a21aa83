import {
  fsMultipartAbortSchema,
  fsMultipartCompleteSchema,
  fsMultipartInitSchema,
  fsMultipartListPartsSchema,
  fsMultipartListUploadsSchema,
  fsMultipartPartQuerySchema,
  fsMultipartRefreshSchema,
  fsPresignCommitSchema,
  fsPresignSchema,
} from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import { webRequestBody } from '../http/requestBody.js';
import type { FsUploadService } from '../services/fs/fsUploadService.js';

/** /api/fs/presign and /api/fs/multipart/*: uploads into the tree that bypass POST /api/fs/upload (docs/api/fs.md). */
export function fsUploadRoutes(deps: { fsUploads: FsUploadService; guard: Guard }) {
  const { fsUploads, guard } = deps;
  return new Hono<AppEnv>()
    .post('/presign', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await fsUploads.presign(principal, await readJson(c, fsPresignSchema)));
    })
    .post('/presign/commit', async (c) => {
      const principal = await guard.authenticated(c);
      const entry = await fsUploads.commit(principal, await readJson(c, fsPresignCommitSchema));
      return ok(c, entry, { status: 201, message: 'file uploaded' });
    })
    .post('/multipart/init', async (c) => {
      const principal = await guard.authenticated(c);
      const init = await fsUploads.initMultipart(principal, await readJson(c, fsMultipartInitSchema));
      return ok(c, init, { message: 'multipart upload started' });
    })
    .put('/multipart/part', async (c) => {
      const principal = await guard.authenticated(c);
      const query = readQuery(c, fsMultipartPartQuerySchema);
      const part = await fsUploads.uploadPart(principal, query, webRequestBody(c), c.req.raw.signal);
      c.header('ETag', part.ETag);
      c.header('Access-Control-Expose-Headers', 'ETag');
      return ok(c, part, { message: 'part uploaded' });
    })
    .post('/multipart/refresh-urls', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await fsUploads.refreshUrls(principal, await readJson(c, fsMultipartRefreshSchema)));
    })
    .post('/multipart/list-parts', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await fsUploads.listParts(principal, await readJson(c, fsMultipartListPartsSchema)));
    })
    .post('/multipart/list-uploads', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await fsUploads.listUploads(principal, await readJson(c, fsMultipartListUploadsSchema)));
    })
    .post('/multipart/complete', async (c) => {
      const principal = await guard.authenticated(c);
      const entry = await fsUploads.completeMultipart(principal, await readJson(c, fsMultipartCompleteSchema));
      return ok(c, entry, { status: 201, message: 'file uploaded' });
    })
    .post('/multipart/abort', async (c) => {
      const principal = await guard.authenticated(c);
      await fsUploads.abortMultipart(principal, await readJson(c, fsMultipartAbortSchema));
      return ok(c, undefined, { message: 'multipart upload aborted' });
    });
}
