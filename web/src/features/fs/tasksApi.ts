/** Copy tasks (docs/api/fs-tasks.md): start, list (polled while one runs), cancel, retry, clear completed. */
import type { BatchCopyResult, TaskView } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { FS_QUERY_KEY } from './api';

export const TASKS_KEY = ['fs-tasks'] as const;
/** How often the task list is read again while a task is pending or running (not when idle). */
export const TASK_POLL_MS = 1000;

export const isActive = (task: TaskView) => task.status === 'pending' || task.status === 'running';

export function useTasks() {
  return useQuery({
    queryKey: TASKS_KEY,
    queryFn: ({ signal }) => api.get<{ items: TaskView[]; total: number }>('/fs/tasks', { signal }),
    refetchInterval: (q) => (q.state.data?.items.some(isActive) ? TASK_POLL_MS : false),
    retry: false,
  });
}

/** One task with its per-file items, polled while it runs. */
export function useTask(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...TASKS_KEY, id],
    queryFn: ({ signal }) => api.get<TaskView>(`/fs/tasks/${encodeURIComponent(id)}`, { signal }),
    // A task that is gone (cleared in another tab, 404) is not asked for again.
    refetchInterval: (q) => (q.state.error === null && q.state.data && isActive(q.state.data) ? TASK_POLL_MS : false),
    enabled,
    retry: false,
  });
}

export function useTaskAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'cancel' | 'retry' }) =>
      api.post<TaskView>(`/fs/tasks/${encodeURIComponent(id)}/${action}`),
    onSettled: () => client.invalidateQueries({ queryKey: TASKS_KEY }),
  });
}

type TaskList = { items: TaskView[]; total: number };

/**
 * After "Clear completed": the completed tasks leave the list at once (their rows, and the detail queries of
 * expanded rows, unmount), their detail queries are dropped, and only the list is read again. Invalidating the
 * whole TASKS_KEY prefix would read every expanded row's task again, cleared ones included: a 404 each.
 */
export async function afterClearCompleted(client: QueryClient): Promise<void> {
  const list = client.getQueryData<TaskList>(TASKS_KEY);
  const cleared = new Set((list?.items ?? []).filter((task) => task.status === 'completed').map((task) => task.id));
  if (list) {
    const items = list.items.filter((task) => !cleared.has(task.id));
    client.setQueryData<TaskList>(TASKS_KEY, { ...list, items, total: Math.max(0, list.total - cleared.size) });
  }
  for (const id of cleared) {
    await client.cancelQueries({ queryKey: [...TASKS_KEY, id], exact: true });
    client.removeQueries({ queryKey: [...TASKS_KEY, id], exact: true });
  }
  await client.invalidateQueries({ queryKey: TASKS_KEY, exact: true });
}

export function useClearCompleted() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ cleared: number }>('/fs/tasks/completed'),
    onSuccess: () => afterClearCompleted(client),
    onError: () => client.invalidateQueries({ queryKey: TASKS_KEY, exact: true }),
  });
}

export function startCopy(items: { sourcePath: string; targetPath: string }[]): Promise<BatchCopyResult> {
  return api.post<BatchCopyResult>('/fs/batch-copy', { items });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a task until it leaves pending/running (a cross-mount move deletes its sources only after this). */
export async function waitForTask(id: string): Promise<TaskView> {
  for (;;) {
    const task = await api.get<TaskView>(`/fs/tasks/${encodeURIComponent(id)}`);
    if (!isActive(task)) return task;
    await sleep(TASK_POLL_MS);
  }
}

/** Starts a copy and shows it in the task list at once (which then polls). */
export function useStartCopy() {
  const client = useQueryClient();
  return async (items: { sourcePath: string; targetPath: string }[]) => {
    const result = await startCopy(items);
    await client.invalidateQueries({ queryKey: TASKS_KEY });
    return result.task;
  };
}

/** Listings change when a task ends: refresh them then. */
export function useInvalidateAfter() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: FS_QUERY_KEY });
}
