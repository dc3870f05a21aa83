import type { TaskView } from '@clipnest/contract';
import type { TFunction } from '../../lib/translate';
import { moveTasks } from './moveTasks';
import { baseName, parentPath } from './paths';

/**
 * A task's title in the reader's language, from its structured fields (the server's `name` is a fixed
 * English summary): "Copy photos to /cloud", "Copy 3 items to /cloud/backup"; other tasks, and tasks made
 * before `subject` existed, by type and file count. The copy half of a move across mounts (started in this
 * browser, see moveTasks) says "Move".
 */
export function taskTitle(
  t: TFunction,
  task: Pick<TaskView, 'type' | 'subject' | 'total_files'> & { id?: string },
): string {
  const { subject } = task;
  if (task.type === 'copy' && subject) {
    const name = baseName(subject.source);
    const move = moveTasks.has(task.id);
    if (subject.count === 1) {
      // "Copy photos to /cloud"; under another name, the full target ("Copy photos to /cloud/photos-2025").
      const target = baseName(subject.target) === name ? parentPath(subject.target) : subject.target;
      return t(move ? 'fs.tasks.names.moveOne' : 'fs.tasks.names.copyOne', { name, target });
    }
    return t(move ? 'fs.tasks.names.moveMany' : 'fs.tasks.names.copyMany', {
      count: subject.count,
      target: parentPath(subject.target),
    });
  }
  return t('fs.tasks.names.other', { type: t(`fs.tasks.types.${task.type}`), count: task.total_files });
}
