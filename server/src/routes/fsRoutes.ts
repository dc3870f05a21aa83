import {
  FS_UPDATE_MAX_BYTES,
  FS_UPLOAD_FIELDS,
  fsBatchRemoveSchema,
  fsCreateShareSchema,
  fsOfficePreviewQuerySchema,
  fsDownloadQuerySchema,
  fsFileLinkQuerySchema,
  fsListQuerySchema,
  fsMkdirSchema,
  fsPathQuerySchema,
  fsRenameSchema,
  fsUpdateSchema,
} from '@clipnest/contract';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import { requestOrigin } from '../http/clientAddress.js';
import type { AppEnv } from '../http/env.js';
import { sendDataJson } from '../http/compressJson.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import { conditionalFrom, replyContent } from '../http/replyContent.js';
import { withUploadForm } from '../http/uploadForm.js';
import { tooLargeError } from '../services/shares/fileShareRules.js';
import type { FileUploadService } from '../services/shares/uploads/fileUploadService.js';
import type { FsService } from '../services/fs/fsService.js';

/** JSON bodies of the fs API (update carries up to 10 MB of text, escaped). */
const UPDATE_BODY_MAX = FS_UPDATE_MAX_BYTES * 2 + 64 * 1024;

/**
 * /api/fs: the mount tree (spec §7 "Filesystem"). Every route needs credentials (admin, or a key with the
 * mount permission of the operation, confined to its basic_path; the tree checks both), except download
 * through a signed link from file-link.
 */
export function fsRoutes(deps: {
  fs: FsService;
  fileUploads: FileUploadService;
  guard: Guard;
  uploadSpoolDir: string;
  trustProxy: boolean;
  publicUrl?: string;
}) {
  const { fs, fileUploads: files, guard } = deps;
  return new Hono<AppEnv>()
    .get('/list', async (c) => {
      const principal = await guard.authenticated(c);
      const q = readQuery(c, fsListQuerySchema);
      const { json, keep } = await fs.listJson(principal, q.path, q);
      return sendDataJson(c, json, { keep });
    })
    .get('/get', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await fs.get(principal, readQuery(c, fsPathQuerySchema).path));
    })
    .on(['GET', 'HEAD'], '/download', async (c) => {
      const q = readQuery(c, fsDownloadQuerySchema);
      const signed = q.sign !== undefined && q.expires !== undefined && !c.req.header('authorization');
      const principal = signed ? null : await guard.authenticated(c);
      const result = await fs.content(
        principal,
        {
          path: q.path,
          mode: q.download ? 'attachment' : 'inline',
          head: c.req.method === 'HEAD',
          ...(signed ? { expires: q.expires, sign: q.sign, ...(q.by !== undefined ? { by: q.by } : {}) } : {}),
        },
        conditionalFrom(c),
      );
      return replyContent(c, result);
    })
    .get('/file-link', async (c) => {
      const principal = await guard.authenticated(c);
      const q = readQuery(c, fsFileLinkQuerySchema);
      return ok(
        c,
        await fs.fileLink(principal, q.path, {
          expiresIn: q.expires_in,
          forceDownload: q.force_download,
          origin: requestOrigin(c, deps.trustProxy, deps.publicUrl),
        }),
      );
    })
    .get('/office-preview', async (c) => {
      const principal = await guard.authenticated(c);
      const q = readQuery(c, fsOfficePreviewQuerySchema);
      return ok(c, await fs.officePreview(principal, q.path, requestOrigin(c, deps.trustProxy, deps.publicUrl)));
    })
    .post('/mkdir', async (c) => {
      const principal = await guard.authenticated(c);
      const { path } = await readJson(c, fsMkdirSchema);
      return ok(c, await fs.mkdir(principal, path), { status: 201, message: 'folder created' });
    })
    .post('/rename', async (c) => {
      const principal = await guard.authenticated(c);
      const { oldPath, newPath } = await readJson(c, fsRenameSchema);
      return ok(c, await fs.rename(principal, oldPath, newPath), { message: 'renamed' });
    })
    .on(['DELETE', 'POST'], '/batch-remove', async (c) => {
      const principal = await guard.authenticated(c);
      const { paths } = await readJson(c, fsBatchRemoveSchema);
      return ok(c, await fs.remove(principal, paths), { message: 'removed' });
    })
    .post('/update', async (c) => {
      const principal = await guard.authenticated(c);
      const { path, content } = await readJson(c, fsUpdateSchema, { maxBytes: UPDATE_BODY_MAX });
      return ok(c, await fs.update(principal, path, content), { message: 'file saved' });
    })
    .post('/create-share', async (c) => {
      const principal = await guard.authenticated(c);
      const { path, ...options } = await readJson(c, fsCreateShareSchema);
      return ok(c, await fs.createShare(principal, path, options), { status: 201, message: 'share created' });
    })
    .post('/upload', async (c) => {
      const principal = await guard.authenticated(c);
      const lengthHeader = c.req.header('content-length');
      const requestLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
      const maxBytes = await files.checkDeclaredSize(requestLength);
      const view = await withUploadForm(
        c,
        {
          fields: FS_UPLOAD_FIELDS,
          locationFields: ['path'],
          spoolDir: deps.uploadSpoolDir,
          maxFileBytes: maxBytes,
          tooLarge: () => tooLargeError(maxBytes),
        },
        async (form) => {
          const path = form.fields.path;
          if (path === undefined || path === '') {
            throw AppError.validation('path is required', [{ path: 'path', message: 'required' }]);
          }
          const target = await fs.uploadTarget(principal, path, form.file.filename);
          const overwrite = form.fields.overwrite !== 'false';
          const entry = await fs.upload(principal, target, form.file.body, {
            contentType: form.file.mimeType,
            maxBytes,
            overwrite,
            ...(form.file.size !== undefined ? { size: form.file.size } : {}),
            signal: c.req.raw.signal,
          });
          // Fields after the file (use_multipart is accepted: the server streams either way).
          await form.complete();
          return entry;
        },
      );
      return ok(c, view, { status: 201, message: 'file uploaded' });
    });
}
