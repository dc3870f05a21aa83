import type { TaskStatus, TaskView } from '@clipnest/contract';
import { ChevronDown, ChevronRight, RotateCcw, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { toast } from '../../../lib/toast';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { IconButton } from '../../../components/ui/icon-button';
import { Progress } from '../../../components/ui/progress';
import { errorMessage } from '../../../lib/api';
import { formatBytes, formatSpeed } from '../../../lib/format';
import { taskTitle } from '../taskTitle';
import { isActive, useClearCompleted, useInvalidateAfter, useTask, useTaskAction, useTasks } from '../tasksApi';

const TONE: Record<TaskStatus, 'neutral' | 'primary' | 'success' | 'warning' | 'danger'> = {
  pending: 'neutral',
  running: 'primary',
  completed: 'success',
  partial: 'warning',
  failed: 'danger',
  cancelled: 'neutral',
};

/** The task manager (spec §3/§4): copy tasks from the server, so it survives a reload. Polls only while one runs. */
export function TaskPanel() {
  const { t } = useTranslation();
  const tasks = useTasks();
  const clear = useClearCompleted();
  const invalidateFs = useInvalidateAfter();
  const items = tasks.data?.items ?? [];
  const active = items.filter(isActive).length;
  // A task that just finished changed listings: read them again.
  const wasActive = useRef(0);
  useEffect(() => {
    if (active < wasActive.current) void invalidateFs();
    wasActive.current = active;
  }, [active, invalidateFs]);
  if (items.length === 0) return null;
  return (
    <section
      aria-label={t('fs.tasks.title')}
      className="rounded-xl border border-border bg-surface p-3 shadow-sm"
      data-testid="fs-tasks"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-sm font-medium">
          {active > 0 ? t('fs.tasks.active', { count: active }) : t('fs.tasks.title')}
        </h2>
        {items.some((i) => i.status === 'completed') && (
          <Button
            variant="ghost"
            size="sm"
            loading={clear.isPending}
            onClick={() => clear.mutate(undefined, { onError: (e) => toast.error(errorMessage(e)) })}
          >
            {t('fs.tasks.clear')}
          </Button>
        )}
      </div>
      <ul className="flex max-h-72 flex-col gap-2 overflow-y-auto">
        {items.map((task) => (
          <TaskRow key={task.id} task={task} />
        ))}
      </ul>
    </section>
  );
}

function TaskRow({ task }: { task: TaskView }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const action = useTaskAction();
  const act = (a: 'cancel' | 'retry') =>
    action.mutate({ id: task.id, action: a }, { onError: (e) => toast.error(errorMessage(e)) });
  const lang = i18n.language;
  const title = taskTitle(t, task);
  return (
    <li className="text-sm" data-testid="fs-task" data-status={task.status} data-name={title}>
      <div className="flex items-center gap-2">
        <IconButton
          label={open ? t('fs.tasks.hideFiles') : t('fs.tasks.showFiles')}
          size="icon-sm"
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
        </IconButton>
        <div className="min-w-0 flex-1">
          <div className="flex items-center justify-between gap-2">
            <span className="truncate" title={title} data-testid="fs-task-title">
              {title}
            </span>
            <Badge tone={TONE[task.status]} data-testid="fs-task-status">
              {t(`fs.tasks.status.${task.status}`)}
            </Badge>
          </div>
          <Progress
            value={task.progress}
            tone={task.status === 'failed' ? 'danger' : task.status === 'completed' ? 'success' : 'primary'}
            label={t('fs.tasks.progressLabel', { name: title })}
          />
          <p className="mt-0.5 truncate text-xs tabular-nums text-muted-foreground">
            {t('fs.tasks.summary', {
              done: task.done_files,
              total: task.total_files,
              bytes: formatBytes(task.bytes_done, lang),
              totalBytes: formatBytes(task.total_bytes, lang),
            })}
            {isActive(task) && task.speed > 0 && ` · ${formatSpeed(task.speed, lang)}`}
            {task.failed_files > 0 && ` · ${t('fs.tasks.failedFiles', { count: task.failed_files })}`}
          </p>
          {task.error && <p className="truncate text-xs text-destructive-soft-foreground">{task.error}</p>}
        </div>
        {isActive(task) && (
          <IconButton label={t('fs.tasks.cancel', { name: title })} size="icon-sm" onClick={() => act('cancel')}>
            <X className="size-4" />
          </IconButton>
        )}
        {task.retryable && !isActive(task) && (
          <IconButton label={t('fs.tasks.retry', { name: title })} size="icon-sm" onClick={() => act('retry')}>
            <RotateCcw className="size-4" />
          </IconButton>
        )}
      </div>
      {open && <TaskFiles task={task} />}
    </li>
  );
}

function TaskFiles({ task }: { task: TaskView }) {
  const { t } = useTranslation();
  const detail = useTask(task.id, true);
  const files = (detail.data?.items ?? []).filter((i) => !i.is_dir);
  return (
    <ul className="ms-9 mt-1 flex flex-col gap-0.5 text-xs" data-testid="fs-task-files">
      {files.map((f) => (
        <li key={f.seq} className="flex items-center justify-between gap-2" data-status={f.status}>
          <span className="min-w-0 truncate font-mono" title={f.target}>
            {f.target}
          </span>
          <span className="shrink-0 text-muted-foreground">
            {f.skipped ? t('fs.tasks.skipped') : t(`fs.tasks.fileStatus.${f.status}`)}
          </span>
        </li>
      ))}
    </ul>
  );
}
