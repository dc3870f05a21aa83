import type {
  MultipartInitResult,
  MultipartStatus,
  PresignResult,
  SignPartsResult,
  UploadedPartView,
  UrlFetchJob,
  UrlInfo,
} from '../uploads.js';
import { URL_JOB_STATUSES } from '../uploads.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';
import { fileViewSchema } from './shares.js';

export const presignResultSchema = shapeOf<PresignResult>()(
  z
    .object({
      upload_url: z.string().meta({ description: 'PUT the bytes here with Content-Type: contentType.' }),
      file_id: z.string(),
      storage_path: z.string(),
      s3_url: z.string().nullable(),
      slug: z.string(),
      provider_type: z.string(),
      contentType: z.string(),
      expires_in: count,
    })
    .meta({ id: 'PresignResult' }),
);

export const multipartInitResultSchema = shapeOf<MultipartInitResult>()(
  z
    .object({
      file_id: z.string(),
      upload_id: z.string(),
      uploadId: z.string(),
      part_size: count,
      part_count: count,
      storage_path: z.string(),
      slug: z.string(),
      provider_type: z.string(),
      presigned_parts: z.boolean(),
    })
    .meta({ id: 'MultipartInitResult' }),
);

export const uploadedPartViewSchema = shapeOf<UploadedPartView>()(
  z.object({ PartNumber: count, ETag: z.string(), size: count }).meta({ id: 'UploadedPart' }),
);

export const signPartsResultSchema = shapeOf<SignPartsResult>()(
  z.object({
    urls: z.array(z.object({ partNumber: count, url: z.string(), proxied: z.boolean() })),
    expires_in: count,
    recorded: z.array(uploadedPartViewSchema).optional(),
  }),
);

export const multipartStatusSchema = shapeOf<MultipartStatus>()(
  z
    .object({
      file_id: z.string(),
      upload_id: z.string(),
      filename: z.string(),
      size: count,
      part_size: count,
      part_count: count,
      presigned_parts: z.boolean(),
      parts: z.array(uploadedPartViewSchema),
      missing: z.array(count),
    })
    .meta({ id: 'MultipartStatus' }),
);

export const uploadCancelledSchema = z.object({ file_id: z.string(), cancelled: z.literal(true) });
export const uploadAbortedSchema = z.object({ file_id: z.string(), aborted: z.literal(true) });

export const urlInfoViewSchema = shapeOf<UrlInfo>()(
  z.object({
    url: z.string(),
    final_url: z.string(),
    filename: z.string(),
    size: count.nullable(),
    mimetype: z.string(),
    supports_range: z.boolean(),
  }),
);

export const urlFetchJobSchema = shapeOf<UrlFetchJob>()(
  z
    .object({
      job_id: z.string(),
      file_id: z.string(),
      url: z.string(),
      filename: z.string(),
      status: z.enum(URL_JOB_STATUSES),
      received: count,
      total: count.nullable(),
      progress: z.number().min(0).max(100).nullable(),
      file: fileViewSchema.optional(),
      error: z.string().optional(),
      created_at: isoTime,
    })
    .meta({ id: 'UrlFetchJob' }),
);
