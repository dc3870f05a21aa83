import { z } from './zod.js';

/** Spec §4 "Task status". */
export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled', 'partial'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_TYPES = ['copy', 'upload', 'delete', 'download'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
/** Spec §4 per-file state. */
export const TASK_ITEM_STATUSES = ['pending', 'downloading', 'completed', 'failed'] as const;
export type TaskItemStatus = (typeof TASK_ITEM_STATUSES)[number];

/** Items of one batch-copy request, and files one copy task may expand to (folders walked). */
export const TASK_LIMITS = { maxRequestItems: 1000, maxTaskFiles: 100_000 } as const;

const virtualPath = z.string().min(1, 'path is required').max(4096, 'path is longer than 4096 bytes');

/** POST /api/fs/batch-copy (spec §7: {items, skipExisting}). */
export const batchCopySchema = z.strictObject({
  items: z
    .array(z.strictObject({ sourcePath: virtualPath, targetPath: virtualPath }))
    .min(1, 'items is empty')
    .max(TASK_LIMITS.maxRequestItems, `at most ${TASK_LIMITS.maxRequestItems} items`),
  skipExisting: z.boolean().optional().default(false),
});
export type BatchCopyInput = z.infer<typeof batchCopySchema>;

/** POST /api/fs/batch-copy-commit (spec §7): files the client copied itself (requiresClientSideCopy). */
export const batchCopyCommitSchema = z.strictObject({
  targetMountId: z.string().min(1).max(64),
  files: z
    .array(
      z.strictObject({
        targetPath: virtualPath,
        s3Path: z.string().max(4096).optional(),
        contentType: z.string().max(255).optional(),
        fileSize: z.number().int().nonnegative().optional(),
        etag: z.string().max(255).optional(),
      }),
    )
    .min(1, 'files is empty')
    .max(TASK_LIMITS.maxRequestItems),
});
export type BatchCopyCommitInput = z.infer<typeof batchCopyCommitSchema>;

export const taskListQuerySchema = z.strictObject({
  status: z.enum(TASK_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export interface TaskItemView {
  seq: number;
  source: string;
  target: string;
  is_dir: boolean;
  size: number;
  bytes_done: number;
  status: TaskItemStatus;
  skipped: boolean;
  error: string | null;
}

export interface TaskView {
  id: string;
  type: TaskType;
  status: TaskStatus;
  name: string;
  total_files: number;
  done_files: number;
  failed_files: number;
  total_bytes: number;
  bytes_done: number;
  /** 0–100. */
  progress: number;
  /** Bytes per second over the current (or last) run. */
  speed: number;
  error: string | null;
  /** true when failed files (or an interrupted run) can be retried. */
  retryable: boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** GET /api/fs/tasks/{id} only. */
  items?: TaskItemView[];
  /**
   * What the task was asked to work on, so a client can title it in its own language (`name` is a fixed
   * English summary): the first item's source and target and how many items the request named. Absent on
   * tasks created before it existed.
   */
  subject?: TaskSubject;
}

export interface TaskSubject {
  /** Virtual path of the first source. */
  source: string;
  /** Virtual path the first source goes to. */
  target: string;
  /** Items the request named (before folders were walked). */
  count: number;
}

/** Answer of POST /api/fs/batch-copy. */
export interface BatchCopyResult {
  task: TaskView;
  /** Always false here: every storage the server mounts can be read and written by the server itself. */
  requiresClientSideCopy: false;
}

/** POST /api/fs/zip: a streamed zip of files and folders (across mounts). */
export const zipRequestSchema = z.strictObject({
  paths: z
    .array(virtualPath)
    .min(1, 'paths is empty')
    .max(TASK_LIMITS.maxRequestItems, `at most ${TASK_LIMITS.maxRequestItems} paths`),
  name: z.string().trim().min(1).max(200, 'name is longer than 200 characters').optional(),
});
export type ZipRequest = z.infer<typeof zipRequestSchema>;
