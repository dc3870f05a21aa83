import type { E2eeParams } from '../e2ee.js';
import { E2EE_KDFS } from '../e2ee.js';
import type { FileKind } from '../fileKinds.js';
import { FILE_KINDS } from '../fileKinds.js';
import type {
  BatchDeleteFilesResult,
  FileView,
  MaxUploadSize,
  OfficePreviewResult,
  PublicFileDetails,
  PublicFileLocked,
} from '../files.js';
import { PASTE_TYPES } from '../pastes.js';
import type { DirectUploadResult } from '../uploads.js';
import type { PasteCreated, PasteDetail, PasteListItem, PasteLocked, PasteView, PastesDeleted } from '../pastes.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const e2eeParamsViewSchema = shapeOf<E2eeParams>()(
  z
    .object({
      v: z.literal(1),
      alg: z.literal('AES-256-GCM'),
      kind: z.enum(['paste', 'file']),
      kdf: z.enum(E2EE_KDFS),
      iterations: count,
      salt: z.string(),
      iv: z.string().optional(),
      chunk_size: z.int().optional(),
    })
    .meta({ id: 'E2eeParams' }),
);

const pasteType = z.enum(PASTE_TYPES);
const fileKind = z.enum(FILE_KINDS as unknown as [FileKind, ...FileKind[]]);

export const pasteLockedSchema = shapeOf<PasteLocked>()(
  z.object({ slug: z.string(), requires_password: z.literal(true) }).meta({ id: 'PasteLocked' }),
);

export const pasteViewSchema = shapeOf<PasteView>()(
  z
    .object({
      slug: z.string(),
      type: pasteType,
      content: z.string(),
      remark: z.string(),
      created_at: isoTime,
      expires_at: isoTime.nullable(),
      max_views: count.meta({ description: '0 = unlimited.' }),
      views: count.meta({ description: 'Views including this one.' }),
      remaining_views: count.nullable().meta({ description: 'null when unlimited; 0: this was the last view.' }),
      has_password: z.boolean(),
      requires_password: z.literal(false),
      is_owner: z.boolean(),
      id: z.string().optional().meta({ description: 'Only for the owner (for PUT /api/pastes/{id}).' }),
      encryption: e2eeParamsViewSchema.nullable(),
    })
    .meta({ id: 'PasteView' }),
);

export const pasteCreatedSchema = shapeOf<PasteCreated>()(
  z
    .object({
      id: z.string(),
      slug: z.string(),
      url: z.string().meta({ description: 'Path of the view page, e.g. /paste/abc.' }),
      raw_url: z.string().meta({ description: 'Path of the raw text, e.g. /api/raw/abc.' }),
      type: pasteType,
      remark: z.string(),
      has_password: z.boolean(),
      expires_at: isoTime.nullable(),
      max_views: count,
      created_at: isoTime,
      encrypted: z.boolean(),
    })
    .meta({ id: 'PasteCreated' }),
);

const pasteListItemShape = {
  id: z.string(),
  slug: z.string(),
  type: pasteType,
  remark: z.string(),
  preview: z.string().meta({ description: "First 200 characters of the content ('' when encrypted)." }),
  size: count.meta({ description: 'Content size in UTF-8 bytes.' }),
  has_password: z.boolean(),
  expires_at: isoTime.nullable(),
  max_views: count,
  views: count,
  remaining_views: count.nullable(),
  expired: z.boolean(),
  encrypted: z.boolean(),
  created_by: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
};

export const pasteListItemSchema = shapeOf<PasteListItem>()(z.object(pasteListItemShape).meta({ id: 'PasteListItem' }));
export const pasteDetailSchema = shapeOf<PasteDetail>()(
  z.object({ ...pasteListItemShape, content: z.string() }).meta({ id: 'PasteDetail' }),
);
export const pastesDeletedSchema = shapeOf<PastesDeleted>()(z.object({ deleted: count }));

const fileViewShape = {
  id: z.string(),
  file_id: z.string(),
  slug: z.string(),
  filename: z.string(),
  mimetype: z.string(),
  size: count,
  type: fileKind,
  path: z.string(),
  remark: z.string(),
  has_password: z.boolean(),
  expires_at: isoTime.nullable(),
  max_views: count,
  views: count,
  use_proxy: z.boolean(),
  s3_config_id: z.string(),
  storage_config_name: z.string().nullable(),
  storage_config_builtin: z.boolean(),
  provider_type: z.string(),
  storage_path: z.string(),
  s3_url: z.string().nullable(),
  etag: z.string().nullable(),
  link: z.string().meta({ description: 'Share page path: /file/{slug}.' }),
  preview_url: z.string(),
  download_url: z.string(),
  encryption: e2eeParamsViewSchema.nullable(),
  created_by: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
};

export const fileViewSchema = shapeOf<FileView>()(z.object(fileViewShape).meta({ id: 'FileView' }));
export const directUploadResultSchema = shapeOf<DirectUploadResult>()(
  z
    .object({
      ...fileViewShape,
      url: z.string().meta({ description: 'Absolute share page URL.' }),
      raw_url: z.string().meta({ description: 'Absolute download URL.' }),
    })
    .meta({ id: 'DirectUploadResult' }),
);

export const batchDeleteFilesResultSchema = shapeOf<BatchDeleteFilesResult>()(
  z.object({ deleted: count, failed: z.array(z.object({ id: z.string(), message: z.string() })) }),
);

export const publicFileLockedSchema = shapeOf<PublicFileLocked>()(
  z
    .object({ slug: z.string(), requires_password: z.literal(true), has_password: z.literal(true) })
    .meta({ id: 'PublicFileLocked' }),
);

export const publicFileDetailsSchema = shapeOf<PublicFileDetails>()(
  z
    .object({
      slug: z.string(),
      requires_password: z.literal(false),
      has_password: z.boolean(),
      filename: z.string(),
      mimetype: z.string(),
      size: count,
      type: fileKind,
      remark: z.string(),
      expires_at: isoTime.nullable(),
      max_views: count,
      views: count,
      created_at: isoTime,
      preview_url: z.string(),
      download_url: z.string(),
      access_token: z.string(),
      inline_safe: z.boolean(),
      encryption: e2eeParamsViewSchema.nullable(),
      is_owner: z.boolean().optional(),
    })
    .meta({ id: 'PublicFileDetails' }),
);

export const officePreviewResultSchema = shapeOf<OfficePreviewResult>()(
  z.object({ url: z.string(), provider: z.enum(['builtin', 'microsoft', 'google']), expires_at: isoTime }),
);

export const maxUploadSizeSchema = shapeOf<MaxUploadSize>()(z.object({ max_upload_size: count }));
