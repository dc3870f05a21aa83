import {
  commitRequestSchema,
  fileIdRequestSchema,
  multipartCompleteSchema,
  Permission,
  urlFetchSchema,
  urlInfoSchema,
  urlMultipartInitSchema,
  urlPresignSchema,
} from '@clipnest/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import { contentDisposition } from '../http/contentDisposition.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import { parseRemoteUrl } from '../net/ssrfGuard.js';
import type { DirectUploadService } from '../services/shares/uploads/directUploadService.js';
import type { MultipartUploadService } from '../services/shares/uploads/multipartUploadService.js';
import { filenameFrom, type UrlUploadService } from '../services/shares/uploads/urlUploadService.js';

const proxyQuerySchema = z.object({ url: urlInfoSchema.shape.url });

/** /api/url: upload from a URL — client-side (proxy + presign/multipart) or server-side (fetch jobs). */
export function urlUploadRoutes(deps: {
  urlUploads: UrlUploadService;
  directUploads: DirectUploadService;
  multipartUploads: MultipartUploadService;
  guard: Guard;
}) {
  const { urlUploads, directUploads, multipartUploads, guard } = deps;
  const need = (c: Parameters<Guard['permission']>[0]) => guard.permission(c, Permission.FILE_SHARE, 'file share');
  const named = <T extends { url: string; filename?: string }>(input: T) => ({
    ...input,
    filename: input.filename ?? filenameFrom(parseRemoteUrl(input.url)),
  });
  return new Hono<AppEnv>()
    .post('/info', async (c) => {
      await need(c);
      const input = await readJson(c, urlInfoSchema);
      return ok(c, await urlUploads.info(input.url));
    })
    .get('/proxy', async (c) => {
      await need(c);
      const { url } = readQuery(c, proxyQuerySchema);
      const remote = await urlUploads.proxy(url, c.req.raw.signal);
      // Remote bytes never render on our origin: opaque type, attachment, sandboxed.
      const headers: Record<string, string> = {
        'Content-Type': 'application/octet-stream',
        'Content-Disposition': contentDisposition('attachment', remote.filename),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "sandbox; default-src 'none'",
        'X-Remote-Content-Type': remote.mimetype,
        'X-Remote-Filename': encodeURIComponent(remote.filename),
        'Cache-Control': 'no-store',
      };
      if (remote.length !== null) headers['Content-Length'] = String(remote.length);
      return new Response(remote.body, { status: 200, headers });
    })
    .post('/presign', async (c) => {
      const principal = await need(c);
      const input = named(await readJson(c, urlPresignSchema));
      return ok(c, await directUploads.presign(principal, input, input.url), { message: 'presigned URL created' });
    })
    .post('/commit', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, commitRequestSchema);
      return ok(c, await directUploads.commit(principal, input), { status: 201, message: 'file uploaded' });
    })
    .post('/multipart/init', async (c) => {
      const principal = await need(c);
      const input = named(await readJson(c, urlMultipartInitSchema));
      return ok(c, await multipartUploads.initMultipart(principal, input, input.url), {
        message: 'multipart upload started',
      });
    })
    .post('/multipart/complete', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, multipartCompleteSchema);
      return ok(c, await multipartUploads.completeMultipart(principal, input), {
        status: 201,
        message: 'file uploaded',
      });
    })
    .post('/multipart/abort', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, fileIdRequestSchema);
      await directUploads.cancel(principal, input.file_id);
      return ok(c, { file_id: input.file_id, aborted: true }, { message: 'upload aborted' });
    })
    .post('/cancel', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, fileIdRequestSchema);
      const job = await urlUploads.cancelJob(principal, input.file_id);
      if (job) return ok(c, job, { message: 'download cancelled' });
      await directUploads.cancel(principal, input.file_id);
      return ok(c, { file_id: input.file_id, cancelled: true }, { message: 'upload cancelled' });
    })
    .post('/fetch', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, urlFetchSchema);
      return ok(c, await urlUploads.startFetch(principal, input), { status: 202, message: 'download started' });
    })
    .get('/jobs/:id', async (c) => {
      const principal = await need(c);
      return ok(c, await urlUploads.getJob(principal, c.req.param('id')));
    });
}
