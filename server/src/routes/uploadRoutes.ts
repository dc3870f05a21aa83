import { Permission, uploadFieldsSchema } from '@clipnest/contract';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { withUploadForm } from '../http/uploadForm.js';
import { tooLargeError } from '../services/fileShareRules.js';
import type { FileUploadService } from '../services/fileUploadService.js';

const FIELD_NAMES = Object.keys(uploadFieldsSchema.shape).filter((name) => name !== 'file');
/** Fields that decide where the bytes go: the file part is spooled unless they all came before it. */
const LOCATION_FIELDS = ['s3_config_id', 'path', 'size'];

function parseFields(fields: Record<string, string>) {
  const parsed = uploadFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const list = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || 'body',
      message: issue.message,
    }));
    throw AppError.validation(`invalid upload fields: ${list.map((f) => `${f.path}: ${f.message}`).join('; ')}`, list);
  }
  return parsed.data;
}

/**
 * POST /api/upload: multipart/form-data streamed into the storage driver. Fields may come before or after
 * the `file` part (see http/uploadForm.ts); the share row is written with all of them after the bytes.
 */
export function uploadRoutes(deps: { fileUploads: FileUploadService; guard: Guard; uploadSpoolDir: string }) {
  const { fileUploads: files, guard } = deps;
  return new Hono<AppEnv>().post('/', async (c) => {
    const principal = await guard.permission(c, Permission.FILE_SHARE, 'file share');
    const lengthHeader = c.req.header('content-length');
    const requestLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    // Before a byte of the body is read: the whole request cannot possibly fit.
    const maxBytes = await files.checkDeclaredSize(requestLength);
    const view = await withUploadForm(
      c,
      {
        fields: FIELD_NAMES,
        locationFields: LOCATION_FIELDS,
        spoolDir: deps.uploadSpoolDir,
        maxFileBytes: maxBytes,
        tooLarge: () => tooLargeError(maxBytes),
      },
      async (form) => {
        const early = parseFields(form.fields);
        const prepared = await files.prepareUpload(early, requestLength);
        return files.upload(
          principal,
          early,
          form.file.body,
          {
            filename: form.file.filename,
            partMimetype: form.file.mimeType,
            requestLength,
            // A spooled file's size is exact; a `size` field the client sent is still checked against it.
            size: early.size === undefined ? form.file.size : undefined,
            signal: c.req.raw.signal,
            finalFields: form.file.spooled ? undefined : async () => parseFields(await form.complete()),
          },
          prepared,
        );
      },
    );
    return ok(c, view, { status: 201, message: 'file uploaded' });
  });
}
