import { Permission, uploadFieldsSchema, type FileView } from '@clipnest/contract';
import busboy from 'busboy';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { nodeRequestBody } from '../http/requestBody.js';
import { ok } from '../http/envelope.js';
import type { FileService } from '../services/fileService.js';

const FIELD_NAMES = new Set(Object.keys(uploadFieldsSchema.shape));

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
 * POST /api/upload: multipart/form-data parsed with busboy and streamed into the storage driver.
 * Text fields must come before the `file` part (fields after it are ignored).
 */
export function uploadRoutes(deps: { files: FileService; guard: Guard }) {
  const { files, guard } = deps;
  return new Hono<AppEnv>().post('/', async (c) => {
    const principal = await guard.permission(c, Permission.FILE_SHARE, 'file share');
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data\b/i.test(contentType)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `expected multipart/form-data, got ${contentType || 'none'}`);
    }
    const lengthHeader = c.req.header('content-length');
    const requestLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    // Before a byte of the body is read: the whole request cannot possibly fit.
    await files.checkDeclaredSize(requestLength);
    const source = nodeRequestBody(c);
    if (!source) throw AppError.validation('select a file to upload', [{ path: 'file', message: 'required' }]);

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        limits: { files: 1, fields: 30, fieldSize: 64 * 1024, parts: 40, fieldNameSize: 100 },
      });
    } catch (error) {
      throw AppError.validation(`malformed multipart body: ${(error as Error).message}`);
    }

    const view = await new Promise<FileView>((resolve, reject) => {
      const fields: Record<string, string> = {};
      let fileSeen = false;
      let settled = false;
      let uploading: Promise<unknown> | undefined;
      let fileStream: (NodeJS.ReadableStream & { destroy(error?: Error): void }) | undefined;
      const fail = (error: unknown, fromUpload = false) => {
        if (settled) return;
        settled = true;
        // Discard the rest of the body so the client can read our answer.
        source.unpipe(parser);
        source.resume();
        if (uploading && !fromUpload) {
          // The body broke mid-file: stop the write and answer once its clean-up is done.
          fileStream?.destroy(error instanceof Error ? error : new Error(String(error)));
          void uploading.then(
            // The file made it but the request did not: do not leave a share the client never heard of.
            (view) =>
              files
                .discard({ ...(view as FileView), storage_config_id: (view as FileView).s3_config_id })
                .finally(() => reject(error)),
            () => reject(error),
          );
          return;
        }
        reject(error);
      };
      parser.on('field', (name, value) => {
        if (!fileSeen && FIELD_NAMES.has(name)) fields[name] = value;
      });
      parser.on('file', (name, stream, info) => {
        // Errors reach the upload through the stream reader; this keeps a late one (or one on a skipped
        // part) from going unhandled.
        stream.on('error', () => undefined);
        if (name !== 'file' || fileSeen) {
          stream.resume();
          return;
        }
        fileSeen = true;
        fileStream = stream;
        uploading = (async () => {
          const parsed = parseFields(fields);
          const prepared = await files.prepareUpload(parsed, requestLength);
          return files.upload(
            principal,
            parsed,
            stream,
            { filename: info.filename ?? '', partMimetype: info.mimeType, requestLength, signal: c.req.raw.signal },
            prepared,
          );
        })();
        uploading.then(
          (result) => {
            if (settled) return;
            settled = true;
            resolve(result as FileView);
          },
          (error: unknown) => {
            stream.resume();
            fail(error, true);
          },
        );
      });
      parser.on('filesLimit', () => undefined);
      parser.on('partsLimit', () => fail(AppError.validation('too many form fields')));
      parser.on('fieldsLimit', () => fail(AppError.validation('too many form fields')));
      parser.on('error', (error: Error) => fail(AppError.validation(`malformed multipart body: ${error.message}`)));
      parser.on('close', () => {
        if (!fileSeen) fail(AppError.validation('select a file to upload', [{ path: 'file', message: 'required' }]));
      });
      source.on('error', (error) => fail(AppError.validation(`upload interrupted: ${error.message}`)));
      source.pipe(parser);
    });
    return ok(c, view, { status: 201, message: 'file uploaded' });
  });
}
