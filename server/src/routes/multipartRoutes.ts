import {
  fileIdRequestSchema,
  multipartCompleteSchema,
  multipartInitSchema,
  Permission,
  recordPartSchema,
  signPartsSchema,
} from '@clipnest/contract';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import { webRequestBody } from '../http/requestBody.js';
import type { DirectUploadService } from '../services/shares/uploads/directUploadService.js';
import type { MultipartUploadService } from '../services/shares/uploads/multipartUploadService.js';

const statusQuerySchema = z.object({ file_id: z.string({ error: 'file_id is required' }).min(1).max(64) });
const partQuerySchema = statusQuerySchema.extend({
  part_number: z.coerce.number({ error: 'part_number is required' }).int().min(1).max(10_000),
});

/** /api/upload/multipart: resumable multipart uploads for file shares (docs/api/uploads.md). */
export function multipartRoutes(deps: {
  directUploads: DirectUploadService;
  multipartUploads: MultipartUploadService;
  guard: Guard;
}) {
  const { directUploads, multipartUploads, guard } = deps;
  const need = (c: Parameters<Guard['permission']>[0]) => guard.permission(c, Permission.FILE_SHARE, 'file share');
  return new Hono<AppEnv>()
    .post('/init', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, multipartInitSchema);
      return ok(c, await multipartUploads.initMultipart(principal, input), { message: 'multipart upload started' });
    })
    .post('/sign-parts', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, signPartsSchema);
      return ok(c, await multipartUploads.signParts(principal, input.file_id, input.part_numbers, input.completed));
    })
    .post('/parts', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, recordPartSchema);
      return ok(c, await multipartUploads.recordPart(principal, input), { message: 'part recorded' });
    })
    .get('/parts', async (c) => {
      const principal = await need(c);
      const query = readQuery(c, statusQuerySchema);
      return ok(c, await multipartUploads.status(principal, query.file_id));
    })
    .put('/part', async (c) => {
      const principal = await need(c);
      const query = readQuery(c, partQuerySchema);
      const body = webRequestBody(c);
      const part = await multipartUploads.putPart(principal, query.file_id, query.part_number, body, c.req.raw.signal);
      c.header('ETag', part.ETag);
      c.header('Access-Control-Expose-Headers', 'ETag');
      return ok(c, part, { message: 'part uploaded' });
    })
    .post('/complete', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, multipartCompleteSchema);
      return ok(c, await multipartUploads.completeMultipart(principal, input), {
        status: 201,
        message: 'file uploaded',
      });
    })
    .post('/abort', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, fileIdRequestSchema);
      await directUploads.cancel(principal, input.file_id);
      return ok(c, { file_id: input.file_id, aborted: true }, { message: 'upload aborted' });
    });
}
