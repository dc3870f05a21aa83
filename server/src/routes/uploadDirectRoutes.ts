import { directUploadQuerySchema, Permission, type DirectUploadResult } from '@clipnest/contract';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import { requestOrigin } from '../http/clientAddress.js';
import type { AppEnv } from '../http/env.js';
import { nodeRequestBody } from '../http/requestBody.js';
import { ok } from '../http/envelope.js';
import { readQuery } from '../http/input.js';
import type { FileUploadService } from '../services/shares/uploads/fileUploadService.js';

/**
 * PUT /api/upload-direct/{filename}: the raw request body becomes a file share (curl -T).
 * Answers the share link as text/plain, or the FileView envelope when Accept asks for JSON.
 * Query: password, expires_in (hours), max_views, slug, remark, path, s3_config_id, use_proxy.
 */
export function uploadDirectRoutes(deps: {
  fileUploads: FileUploadService;
  guard: Guard;
  trustProxy: boolean;
  publicUrl?: string;
}) {
  const { fileUploads: files, guard } = deps;
  return new Hono<AppEnv>().put('/:filename{.+}', async (c) => {
    const principal = await guard.permission(c, Permission.FILE_SHARE, 'file share');
    const fields = readQuery(c, directUploadQuerySchema);
    const filename = c.req.param('filename');
    const lengthHeader = c.req.header('content-length');
    const requestLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    const prepared = await files.prepareUpload(fields, requestLength);
    const body = nodeRequestBody(c);
    if (!body || requestLength === 0)
      throw AppError.validation('the file is empty', [{ path: 'file', message: 'empty' }]);
    let type = c.req.header('content-type');
    // curl --data-binary sends this by default; it says nothing about the file.
    if (type && /^application\/x-www-form-urlencoded\b/i.test(type)) type = undefined;
    const view = await files.upload(
      principal,
      fields,
      body,
      { filename, partMimetype: type, requestLength, size: requestLength, signal: c.req.raw.signal },
      prepared,
    );
    const base = requestOrigin(c, deps.trustProxy, deps.publicUrl);
    const result: DirectUploadResult = { ...view, url: `${base}${view.link}`, raw_url: `${base}${view.download_url}` };
    if (/\bapplication\/json\b/i.test(c.req.header('accept') ?? '')) {
      return ok(c, result, { status: 201, message: 'file uploaded' });
    }
    return c.text(`${result.url}\n`, 201);
  });
}
