import { Permission, uploadFormFieldsSchema, type FileView, type UploadFormFields } from '@clipnest/contract';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { withUploadForm, type UploadFormFile } from '../http/uploadForm.js';
import { tooLargeError } from '../services/shares/fileShareRules.js';
import type { FileShareService } from '../services/shares/fileShareService.js';
import type { FileUploadService } from '../services/shares/uploads/fileUploadService.js';
import type { FolderShareService } from '../services/shares/folderShareService.js';
import type { Principal } from '../auth/principal.js';

const FIELD_NAMES = Object.keys(uploadFormFieldsSchema.shape).filter((name) => name !== 'file');
/** Fields that decide where the bytes go: the file part is spooled unless they all came before it. */
const LOCATION_FIELDS = ['s3_config_id', 'path', 'size'];
/** Most files one bundle upload carries. */
export const BUNDLE_MAX_FILES = 100;

function parseFields(fields: Record<string, string>) {
  const parsed = uploadFormFieldsSchema.safeParse(fields);
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
 * The fields each file of a bundle is stored with: the bundle's slug, remark and download limit belong to the
 * bundle; the password and expiry hold for each file's own share too (its random link is no way around them).
 */
function fileFieldsOf(fields: UploadFormFields): UploadFormFields {
  if (!fields.bundle) return fields;
  const { slug: _slug, remark: _remark, max_views: _views, max_downloads: _downloads, size: _size, ...rest } = fields;
  return rest;
}

/**
 * POST /api/upload: multipart/form-data streamed into the storage driver. Fields may come before or after
 * the `file` part (see http/uploadForm.ts); the share row is written with all of them after the bytes.
 * With `bundle=true` several `file` parts (the later ones spooled) become one share listing them all.
 */
export function uploadRoutes(deps: {
  fileUploads: FileUploadService;
  files: Pick<FileShareService, 'discard'>;
  folderShares: Pick<FolderShareService, 'createBundle'>;
  guard: Guard;
  uploadSpoolDir: string;
}) {
  const { fileUploads: files, guard } = deps;
  return new Hono<AppEnv>().post('/', async (c) => {
    const principal = await guard.permission(c, Permission.FILE_SHARE, 'file share');
    const lengthHeader = c.req.header('content-length');
    const requestLength = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    // Before a byte of the body is read: the whole request cannot possibly fit.
    const maxBytes = await files.checkDeclaredSize(requestLength);
    let all: UploadFormFields | undefined;
    let extras: UploadFormFile[] = [];
    const result = await withUploadForm(
      c,
      {
        fields: FIELD_NAMES,
        locationFields: LOCATION_FIELDS,
        spoolDir: deps.uploadSpoolDir,
        maxFileBytes: maxBytes,
        tooLarge: () => tooLargeError(maxBytes),
        extraFiles: BUNDLE_MAX_FILES - 1,
      },
      async (form) => {
        const early = parseFields(form.fields);
        // A bundle's total size is not one file's: the request length is no bound for one of its files.
        const prepared = await files.prepareUpload(fileFieldsOf(early), early.bundle ? undefined : requestLength);
        const first = await files.upload(
          principal,
          fileFieldsOf(early),
          form.file.body,
          {
            filename: form.file.filename,
            partMimetype: form.file.mimeType,
            requestLength: early.bundle ? undefined : requestLength,
            // A spooled file's size is exact; a `size` field the client sent is still checked against it.
            size: early.size === undefined || early.bundle ? form.file.size : undefined,
            signal: c.req.raw.signal,
            finalFields: async () => {
              all = parseFields(await form.complete());
              extras = await form.extraFiles();
              if (extras.length > 0 && !all.bundle) {
                throw AppError.validation('several files need bundle=true (one link for all)', [
                  { path: 'bundle', message: 'send bundle=true with several files' },
                ]);
              }
              return fileFieldsOf(all);
            },
          },
          prepared,
        );
        if (!all?.bundle) return first;
        return createBundle(principal, all, first, extras);
      },
    );
    if (all?.bundle) return ok(c, result, { status: 201, message: 'bundle created' });
    return ok(c, result, { status: 201, message: 'file uploaded' });
  });

  /** Stores the spooled files after the first, then the bundle; on any failure every file stored goes again. */
  async function createBundle(
    principal: Principal,
    fields: UploadFormFields,
    first: FileView,
    extras: UploadFormFile[],
  ) {
    const stored: FileView[] = [first];
    const fileFields = fileFieldsOf(fields);
    try {
      for (const extra of extras) {
        const prepared = await files.prepareUpload(fileFields);
        stored.push(
          await files.upload(
            principal,
            fileFields,
            extra.body,
            { filename: extra.filename, partMimetype: extra.mimeType, size: extra.size },
            prepared,
          ),
        );
      }
      return await deps.folderShares.createBundle(principal, {
        files: stored.map((f) => ({ id: f.id, filename: f.filename })),
        password: fields.password,
        expires_in: fields.expires_in,
        max_downloads: fields.max_downloads ?? fields.max_views,
        slug: fields.slug,
        remark: fields.remark,
      });
    } catch (error) {
      for (const file of stored) {
        await deps.files
          .discard({ id: file.id, storage_config_id: file.s3_config_id, storage_path: file.storage_path })
          .catch(() => undefined);
      }
      throw error;
    }
  }
}
