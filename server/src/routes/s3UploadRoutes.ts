import { commitRequestSchema, fileIdRequestSchema, Permission, presignRequestSchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { DirectUploadService } from '../services/shares/uploads/directUploadService.js';

/** /api/s3: presigned direct upload (presign → browser PUT → commit; cancel on failure). */
export function s3UploadRoutes(deps: { directUploads: DirectUploadService; guard: Guard }) {
  const { directUploads, guard } = deps;
  const need = (c: Parameters<Guard['permission']>[0]) => guard.permission(c, Permission.FILE_SHARE, 'file share');
  return new Hono<AppEnv>()
    .post('/presign', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, presignRequestSchema);
      return ok(c, await directUploads.presign(principal, input), { message: 'presigned URL created' });
    })
    .post('/commit', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, commitRequestSchema);
      return ok(c, await directUploads.commit(principal, input), { status: 201, message: 'file uploaded' });
    })
    .post('/cancel', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, fileIdRequestSchema);
      await directUploads.cancel(principal, input.file_id);
      return ok(c, { file_id: input.file_id, cancelled: true }, { message: 'upload cancelled' });
    });
}
