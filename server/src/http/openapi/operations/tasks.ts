import {
  batchCopyCommitSchema,
  batchCopySchema,
  searchQuerySchema,
  taskListQuerySchema,
  zipRequestSchema,
} from '@clipnest/contract';
import {
  batchCopyResultSchema,
  count,
  isoTime,
  searchResultSchema,
  taskViewSchema,
} from '@clipnest/contract/responses';
import { z } from 'zod';
import type { Operations } from '../operation.js';

const zipFile = {
  media: { 'application/zip': 'The zip, streamed (Content-Length known in advance).' },
  description: 'The zip file, as an attachment.',
};

const committedEntry = z.object({
  name: z.string(),
  path: z.string(),
  isDir: z.boolean(),
  size: count,
  lastModified: isoTime.optional(),
  etag: z.string().optional(),
  contentType: z.string().optional(),
  mountId: z.string().optional(),
  isMount: z.boolean().optional(),
  isLink: z.boolean().optional(),
});

/** server/src/routes/taskRoutes.ts, fsCopyRoutes.ts, fsZipRoutes.ts and fsSearchRoutes.ts */
export const taskOperations: Operations = {
  'GET /api/fs/tasks': {
    summary: "The caller's tasks, newest first",
    description: "The admin sees everyone's tasks.",
    tag: 'Tasks',
    access: 'signed-in',
    query: taskListQuerySchema,
    answer: { data: z.object({ items: z.array(taskViewSchema), total: count, limit: count, offset: count }) },
  },
  'DELETE /api/fs/tasks/completed': {
    summary: 'Remove finished tasks',
    tag: 'Tasks',
    access: 'signed-in',
    answer: { data: z.object({ cleared: count }) },
  },
  'GET /api/fs/tasks/{id}': {
    summary: 'One task with its items',
    tag: 'Tasks',
    access: 'signed-in',
    answer: { data: taskViewSchema },
  },
  'POST /api/fs/tasks/{id}/cancel': {
    summary: 'Cancel a task',
    tag: 'Tasks',
    access: 'signed-in',
    answer: { data: taskViewSchema },
    errors: ['CONFLICT'],
  },
  'POST /api/fs/tasks/{id}/retry': {
    summary: 'Retry the failed items of a task',
    tag: 'Tasks',
    access: 'signed-in',
    answer: { data: taskViewSchema, status: 202 },
    errors: ['CONFLICT'],
  },
  'POST /api/fs/batch-copy': {
    summary: 'Copy files and folders across mounts (a background task)',
    tag: 'Tasks',
    access: 'MOUNT_COPY',
    body: { json: batchCopySchema },
    answer: { data: batchCopyResultSchema, status: 202 },
    errors: ['NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  },
  'POST /api/fs/batch-copy-commit': {
    summary: 'Announce files a client copied itself',
    tag: 'Tasks',
    access: 'MOUNT_COPY',
    body: { json: batchCopyCommitSchema },
    answer: {
      data: z.object({
        committed: z.array(committedEntry),
        failed: z.array(z.object({ targetPath: z.string(), error: z.string() })),
      }),
    },
    errors: ['NOT_FOUND'],
  },
  'POST /api/fs/zip': {
    summary: 'Download files and folders as one zip',
    tag: 'Tasks',
    access: 'MOUNT_VIEW',
    body: { json: zipRequestSchema },
    answer: zipFile,
    errors: ['NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  },
  'POST /api/fs/zip/link': {
    summary: 'A 5-minute link to such a zip (for a native browser download)',
    tag: 'Tasks',
    access: 'MOUNT_VIEW',
    body: { json: zipRequestSchema },
    answer: { data: z.object({ url: z.string(), expires_at: isoTime }) },
    errors: ['NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  },
  'GET /api/fs/zip/{token}': {
    summary: 'The zip of a link from /api/fs/zip/link',
    description: 'The token in the path is the credential.',
    tag: 'Tasks',
    access: 'public',
    answer: zipFile,
    errors: ['GONE'],
  },
  'GET /api/fs/search': {
    summary: 'Search file names in the mounts',
    description: 'From the index of the mounts (`indexed_at` says how fresh); at least 2 characters.',
    tag: 'Search',
    access: 'MOUNT_VIEW',
    query: searchQuerySchema,
    answer: { data: searchResultSchema },
  },
};
