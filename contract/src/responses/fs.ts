import { ARCHIVE_FORMATS, type ArchiveListing } from '../archives.js';
import type { FsEntryView, FsFileLink, FsListing, FsMultipartInit, FsPresignResult, FsRemoveResult } from '../fs.js';
import type { SearchResult } from '../search.js';
import {
  TASK_ITEM_STATUSES,
  TASK_STATUSES,
  TASK_TYPES,
  type BatchCopyResult,
  type TaskItemView,
  type TaskView,
} from '../tasks.js';
import { STORAGE_TYPES } from '../storageConfigs.js';
import { z } from '../zod.js';
import { count, isoTime, shapeOf } from './define.js';

export const fsEntryViewSchema = shapeOf<FsEntryView>()(
  z
    .object({
      name: z.string(),
      path: z.string().meta({ description: 'Virtual path.' }),
      isDirectory: z.boolean(),
      size: count,
      modified: isoTime.optional(),
      etag: z.string().optional(),
      mimetype: z.string().optional(),
      mount_id: z.string().optional(),
      isMount: z.boolean().optional(),
      storage_type: z.enum(STORAGE_TYPES).optional().meta({ description: "A mount point's storage type." }),
    })
    .meta({ id: 'FsEntryView' }),
);

export const fsListingSchema = shapeOf<FsListing>()(
  z
    .object({
      path: z.string(),
      isRoot: z.boolean(),
      isVirtual: z.boolean(),
      mount_id: z.string().optional(),
      items: z.array(fsEntryViewSchema),
      total: count,
      limit: count,
      offset: count,
      cursor: z.string().optional().meta({ description: 'Present when more entries follow: pass it back as cursor.' }),
      cached: z.boolean(),
    })
    .meta({ id: 'FsListing' }),
);

export const fsFileLinkSchema = shapeOf<FsFileLink>()(
  z.object({ url: z.string(), type: z.enum(['presigned', 'proxy']), expires_at: isoTime }),
);

export const fsRemoveResultSchema = shapeOf<FsRemoveResult>()(z.object({ removed: z.array(z.string()) }));

export const fsPresignResultSchema = shapeOf<FsPresignResult>()(
  z.object({ presignedUrl: z.string(), targetPath: z.string(), contentType: z.string(), expires_in: count }),
);

export const fsMultipartInitSchemaView = shapeOf<FsMultipartInit>()(
  z.object({
    uploadId: z.string(),
    path: z.string(),
    partSize: count,
    partCount: count,
    presigned: z.boolean(),
    presignedUrls: z.array(z.object({ partNumber: count, url: z.string() })),
  }),
);

export const uploadedPartSchema = z.object({ PartNumber: count, ETag: z.string(), size: count });

const taskItemViewSchema = shapeOf<TaskItemView>()(
  z.object({
    seq: count,
    source: z.string(),
    target: z.string(),
    is_dir: z.boolean(),
    size: count,
    bytes_done: count,
    status: z.enum(TASK_ITEM_STATUSES),
    skipped: z.boolean(),
    error: z.string().nullable(),
  }),
);

export const taskViewSchema = shapeOf<TaskView>()(
  z
    .object({
      id: z.string(),
      type: z.enum(TASK_TYPES),
      status: z.enum(TASK_STATUSES),
      name: z.string(),
      total_files: count,
      done_files: count,
      failed_files: count,
      total_bytes: count,
      bytes_done: count,
      progress: z.number().min(0).max(100),
      speed: z.number().min(0),
      error: z.string().nullable(),
      retryable: z.boolean(),
      created_by: z.string(),
      created_at: isoTime,
      updated_at: isoTime,
      started_at: isoTime.nullable(),
      finished_at: isoTime.nullable(),
      items: z.array(taskItemViewSchema).optional(),
      subject: z.object({ source: z.string(), target: z.string(), count }).optional(),
    })
    .meta({ id: 'TaskView' }),
);

export const batchCopyResultSchema = shapeOf<BatchCopyResult>()(
  z.object({ task: taskViewSchema, requiresClientSideCopy: z.literal(false) }),
);

export const searchResultSchema = shapeOf<SearchResult>()(
  z
    .object({
      items: z.array(
        z.object({
          name: z.string(),
          path: z.string(),
          isDir: z.boolean(),
          size: count,
          lastModified: isoTime.optional(),
          mountId: z.string(),
        }),
      ),
      total: count,
      limit: count,
      offset: count,
      indexed_at: isoTime.nullable(),
    })
    .meta({ id: 'SearchResult' }),
);

export const archiveListingSchema = shapeOf<ArchiveListing>()(
  z
    .object({
      format: z.enum(ARCHIVE_FORMATS),
      entries: z.array(
        z.object({
          name: z.string(),
          directory: z.boolean(),
          size: count,
          compressed_size: count.nullable(),
          modified: isoTime.nullable(),
          unsafe: z.boolean(),
          encrypted: z.boolean(),
        }),
      ),
      total_entries: count,
      truncated: z.boolean(),
    })
    .meta({ id: 'ArchiveListing' }),
);
