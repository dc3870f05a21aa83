import { batchDeleteFilesSchema, fileListQuerySchema, Permission, updateFileSchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import type { FileShareService } from '../services/shares/fileShareService.js';

/** /api/files: admins see every file share, key holders (FILE_SHARE) only their own. */
export function fileRoutes(deps: { files: FileShareService; guard: Guard }) {
  const { files, guard } = deps;
  const need = (c: Parameters<Guard['permission']>[0]) => guard.permission(c, Permission.FILE_SHARE, 'file share');
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const principal = await need(c);
      return ok(c, await files.list(principal, readQuery(c, fileListQuerySchema)));
    })
    .delete('/batch-delete', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, batchDeleteFilesSchema);
      const result = await files.batchDelete(principal, input.ids, input.delete_mode);
      return ok(c, result, {
        message: result.failed.length
          ? `${result.deleted} deleted, ${result.failed.length} failed`
          : `${result.deleted} deleted`,
      });
    })
    .get('/:id', async (c) => {
      const principal = await need(c);
      return ok(c, await files.get(principal, c.req.param('id')));
    })
    .put('/:id', async (c) => {
      const principal = await need(c);
      const input = await readJson(c, updateFileSchema);
      return ok(c, await files.update(principal, c.req.param('id'), input), { message: 'file updated' });
    });
}

/** GET /api/system/max-upload-size (public: the upload page checks sizes before sending). */
export function maxUploadSizeRoutes(deps: { files: FileShareService }) {
  return new Hono<AppEnv>().get('/system/max-upload-size', async (c) =>
    ok(c, { max_upload_size: await deps.files.maxUploadSize() }),
  );
}
