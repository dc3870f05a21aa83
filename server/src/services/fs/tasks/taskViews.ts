import type { TaskItemStatus, TaskItemView, TaskStatus, TaskSubject, TaskType, TaskView } from '@clipnest/contract';
import type { TaskItemRow, TaskRow } from '../../../repositories/taskRepository.js';

/** Statuses a task can be retried from (failed files, or a run cut short). */
export const RETRYABLE: readonly TaskStatus[] = ['failed', 'partial', 'cancelled'];
/** Statuses of a task nobody works on any more. */
export const FINISHED: readonly TaskStatus[] = ['completed', 'failed', 'partial', 'cancelled'];

export function itemView(row: TaskItemRow): TaskItemView {
  return {
    seq: row.seq,
    source: row.source,
    target: row.target,
    is_dir: row.is_dir === 1,
    size: row.size,
    bytes_done: row.bytes_done,
    status: row.status as TaskItemStatus,
    skipped: row.skipped === 1,
    error: row.error,
  };
}

/** The `subject` a task's options carry (copy tasks made since it existed), else undefined. */
function subjectOf(optionsJson: string): TaskSubject | undefined {
  try {
    const subject = (JSON.parse(optionsJson) as { subject?: Partial<TaskSubject> }).subject;
    if (
      subject &&
      typeof subject.source === 'string' &&
      typeof subject.target === 'string' &&
      typeof subject.count === 'number'
    ) {
      return { source: subject.source, target: subject.target, count: subject.count };
    }
  } catch {
    // Options written by something else: no subject.
  }
  return undefined;
}

export function taskView(row: TaskRow, items?: TaskItemRow[]): TaskView {
  const status = row.status as TaskStatus;
  const progress =
    row.total_bytes > 0
      ? Math.min(100, Math.floor((row.bytes_done / row.total_bytes) * 100))
      : row.total_files > 0
        ? Math.floor((row.done_files / row.total_files) * 100)
        : status === 'completed'
          ? 100
          : 0;
  const subject = subjectOf(row.options_json);
  return {
    id: row.id,
    type: row.type as TaskType,
    status,
    name: row.name,
    total_files: row.total_files,
    done_files: row.done_files,
    failed_files: row.failed_files,
    total_bytes: row.total_bytes,
    bytes_done: row.bytes_done,
    progress: status === 'completed' ? 100 : progress,
    speed: row.speed,
    error: row.error,
    retryable: RETRYABLE.includes(status),
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    ...(items ? { items: items.map(itemView) } : {}),
    ...(subject ? { subject } : {}),
  };
}
