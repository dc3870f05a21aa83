import type { TaskView } from '@clipnest/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { afterClearCompleted, TASKS_KEY } from './tasksApi';

const task = (id: string, status: TaskView['status']) => ({ id, status }) as TaskView;

describe('Clear completed (issue 35 point 21)', () => {
  it('reads the list again but never a cleared task (no 404 poller), and drops its detail query', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const readList = vi.fn(async () => ({ items: [task('run', 'running')], total: 1 }));
    client.setQueryData(TASKS_KEY, { items: [task('done', 'completed'), task('run', 'running')], total: 2 });
    new QueryObserver(client, { queryKey: TASKS_KEY, queryFn: readList, staleTime: Infinity }).subscribe(() => {});
    // An expanded row of each task: its detail query is observed.
    const readDetail = vi.fn(async ({ queryKey }: { queryKey: readonly unknown[] }) =>
      queryKey[1] === 'done' ? Promise.reject(new Error('404 task not found')) : task('run', 'running'),
    );
    for (const id of ['done', 'run']) {
      client.setQueryData([...TASKS_KEY, id], task(id, id === 'done' ? 'completed' : 'running'));
      new QueryObserver(client, { queryKey: [...TASKS_KEY, id], queryFn: readDetail, staleTime: Infinity }).subscribe(
        () => {},
      );
    }

    await afterClearCompleted(client);

    expect(readList).toHaveBeenCalledTimes(1);
    expect(readDetail.mock.calls.map(([ctx]) => ctx.queryKey[1])).not.toContain('done');
    expect(client.getQueryCache().find({ queryKey: [...TASKS_KEY, 'done'], exact: true })).toBeUndefined();
    expect(client.getQueryData<{ items: TaskView[] }>(TASKS_KEY)?.items.map((t) => t.id)).toEqual(['run']);
  });
});
