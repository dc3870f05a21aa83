import {
  createUploadRequestSchema,
  SHARE_PASSWORD_HEADER,
  shareManageListQuerySchema,
  UPLOAD_REQUEST_FILES_PER_POST,
} from '@clipnest/contract';
import { Hono, type Context } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import { readQuery } from '../http/input.js';
import { withUploadForm } from '../http/uploadForm.js';
import { formatBytes } from '../services/shares/fileShareRules.js';
import type { ArrivedFile, UploadRequestService } from '../services/shares/uploadRequestService.js';

function accessOf(c: Context<AppEnv>) {
  return { password: c.req.header(SHARE_PASSWORD_HEADER), client: c.var.clientAddress };
}

/**
 * /api/upload-requests (docs/api/upload-requests.md): links others upload files into. Creating, listing and
 * revoking need credentials; the slug routes are public (the password as `X-Share-Password`).
 */
export function uploadRequestRoutes(deps: {
  uploadRequests: UploadRequestService;
  guard: Guard;
  uploadSpoolDir: string;
}) {
  const { uploadRequests: requests, guard } = deps;
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const principal = await guard.authenticated(c);
      const input = await readJson(c, createUploadRequestSchema, { maxBytes: 64 * 1024 });
      return ok(c, await requests.create(principal, input), { status: 201, message: 'upload request created' });
    })
    .get('/', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await requests.listOwned(principal, readQuery(c, shareManageListQuerySchema)));
    })
    .delete('/:id', async (c) => {
      const principal = await guard.authenticated(c);
      await requests.revoke(principal, c.req.param('id'));
      return ok(c, undefined, { message: 'upload request revoked' });
    })
    .get('/:slug', async (c) => ok(c, await requests.info(c.req.param('slug'), accessOf(c))))
    .post('/:slug/upload', async (c) => {
      const lengthHeader = c.req.header('content-length');
      const requestLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
      // Before a byte of the body is read: open, the password right, the address under its rate.
      const { row, maxFileBytes } = await requests.admit(c.req.param('slug'), accessOf(c), requestLength);
      const receipt = await withUploadForm(
        c,
        {
          fields: [],
          // Every file is spooled (and metered) before anything is reserved or stored.
          locationFields: ['-'],
          spoolDir: deps.uploadSpoolDir,
          maxFileBytes,
          tooLarge: () => requests.quota(`a file is larger than this link accepts (${formatBytes(maxFileBytes)})`),
          extraFiles: UPLOAD_REQUEST_FILES_PER_POST - 1,
        },
        async (form) => {
          const all = [form.file, ...(await form.extraFiles())];
          const files: ArrivedFile[] = all.map((f) => ({
            filename: f.filename,
            mimeType: f.mimeType,
            size: f.size ?? 0,
            path: f.spoolPath ?? '',
          }));
          return requests.receive(row, files);
        },
      );
      return ok(c, receipt, { status: 201, message: 'files received' });
    });
}
