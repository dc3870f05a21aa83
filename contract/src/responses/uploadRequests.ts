import type {
  PublicUploadRequestInfo,
  ReceivedFileView,
  UploadRequestReceipt,
  UploadRequestView,
} from '../uploadRequests.js';
import { UPLOAD_REQUEST_STATES } from '../uploadRequests.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const uploadRequestViewSchema = shapeOf<UploadRequestView>()(
  z
    .object({
      id: z.string(),
      slug: z.string(),
      url: z.string(),
      target_path: z.string(),
      note: z.string(),
      has_password: z.boolean(),
      max_files: count,
      max_bytes: count,
      max_file_bytes: count,
      files_received: count,
      bytes_received: count,
      expires_at: isoTime.nullable(),
      revoked_at: isoTime.nullable(),
      last_upload_at: isoTime.nullable(),
      state: z.enum(UPLOAD_REQUEST_STATES),
      created_by: z.string(),
      created_at: isoTime,
      updated_at: isoTime,
    })
    .meta({ id: 'UploadRequestView' }),
);

export const publicUploadRequestInfoSchema = shapeOf<PublicUploadRequestInfo>()(
  z
    .object({
      slug: z.string(),
      requires_password: z.boolean(),
      note: z.string().optional(),
      max_files: count,
      max_bytes: count,
      max_file_bytes: count,
      files_remaining: count.nullable(),
      bytes_remaining: count.nullable(),
      expires_at: isoTime.nullable(),
    })
    .meta({ id: 'PublicUploadRequestInfo' }),
);

export const uploadRequestReceiptSchema = shapeOf<UploadRequestReceipt>()(
  z.object({ files: z.array(z.object({ name: z.string(), size: count })) }).meta({ id: 'UploadRequestReceipt' }),
);

export const receivedFileViewSchema = shapeOf<ReceivedFileView>()(
  z
    .object({
      id: z.string(),
      request_id: z.string(),
      request_slug: z.string(),
      name: z.string(),
      size: count,
      path: z.string(),
      file_id: z.string().nullable(),
      created_at: isoTime,
    })
    .meta({ id: 'ReceivedFileView' }),
);
