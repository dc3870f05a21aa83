import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.js';
import { systemClock } from '../../lib/clock.js';
import { createLogger } from '../../lib/logger.js';
import { TaskRepository, type TaskItemRow } from '../../repositories/taskRepository.js';
import type { AdminPrincipal, ApiKeyPrincipal } from '../principal.js';
import { INTERRUPTED_MESSAGE, TaskService, type TaskRunContext } from './taskService.js';

const admin: AdminPrincipal = { type: 'admin', adminId: 'a1', username: 'admin', tokenHash: '', expiresAt: '' };
const key: ApiKeyPrincipal = {
  type: 'apikey',
  keyId: 'k1',
  name: 'k',
  permissions: 0,
  basicPath: '/',
  isGuest: 0,
  role: 'GENERAL',
  expiresAt: null,
};

/** An executor the test steers: items named `fail*` fail, `gate` waits until released (or aborted). */
class FakeExecutor {
  ran: string[] = [];
  failing = new Set<string>();
  private release?: () => void;
  gate = new Promise<void>((resolve) => (this.release = resolve));
  reachedGate?: () => void;
  atGate = new Promise<void>((resolve) => (this.reachedGate = resolve));

  open(): void {
    this.release?.();
  }

  async runItem(ctx: TaskRunContext, item: TaskItemRow) {
    if (item.source === 'gate') {
      this.reachedGate?.();
      await new Promise<void>((resolve, reject) => {
        void this.gate.then(resolve);
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    }
    if (this.failing.has(item.source)) throw new Error(`cannot copy ${item.source}`);
    ctx.onBytes(item.size);
    this.ran.push(item.source);
    return {};
  }
}

const items = (...names: string[]) =>
  names.map((name) => ({ source: name, target: `/t/${name}`, isDir: false, size: 10 }));

describe('TaskService', () => {
  let database: DatabaseHandle;
  let service: TaskService;
  let executor: FakeExecutor;

  const build = () => {
    const s = new TaskService({
      tasks: new TaskRepository(database.db),
      clock: systemClock,
      logger: createLogger('silent'),
    });
    s.register('copy', executor);
    return s;
  };

  beforeEach(async () => {
    database = openDatabase('sqlite::memory:');
    await migrateToLatest(database);
    executor = new FakeExecutor();
    service = build();
  });
  afterEach(async () => {
    await service.close();
    await database.close();
  });

  it('runs every item, then is completed with full progress', async () => {
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'b', 'c') });
    await service.settled(task.id);
    const done = await service.get(admin, task.id);
    expect(done).toMatchObject({ status: 'completed', done_files: 3, failed_files: 0, bytes_done: 30, progress: 100 });
    expect(done.items?.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('ends partial when some files fail, and a retry runs only the failed ones', async () => {
    executor.failing.add('b');
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'b', 'c') });
    await service.settled(task.id);
    const partial = await service.get(admin, task.id);
    expect(partial).toMatchObject({ status: 'partial', done_files: 2, failed_files: 1, retryable: true });
    expect(partial.items?.[1]).toMatchObject({ status: 'failed', error: 'cannot copy b' });
    executor.failing.clear();
    executor.ran = [];
    await service.retry(admin, task.id);
    await service.settled(task.id);
    expect(executor.ran).toEqual(['b']);
    expect(await service.get(admin, task.id)).toMatchObject({ status: 'completed', done_files: 3, failed_files: 0 });
  });

  it('cancels midway: finished files stay, the rest stay pending; retry finishes them', async () => {
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'gate', 'c') });
    await executor.atGate;
    const cancelled = await service.cancel(admin, task.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.items?.map((i) => i.status)).toEqual(['completed', 'pending', 'pending']);
    await expect(service.cancel(admin, task.id)).rejects.toMatchObject({ kind: 'CONFLICT' });
    executor.open();
    await service.retry(admin, task.id);
    await service.settled(task.id);
    expect(await service.get(admin, task.id)).toMatchObject({ status: 'completed', done_files: 3 });
  });

  it('a task left running by a stopped process is failed and retryable on the next start', async () => {
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'gate', 'c') });
    await executor.atGate;
    await service.close();
    expect((await service.get(admin, task.id)).status).toBe('running');
    executor = new FakeExecutor();
    executor.open();
    service = build();
    expect(await service.failInterrupted()).toBe(1);
    const failed = await service.get(admin, task.id);
    expect(failed).toMatchObject({ status: 'failed', error: INTERRUPTED_MESSAGE, retryable: true });
    expect(failed.items?.map((i) => i.status)).toEqual(['completed', 'failed', 'pending']);
    await service.retry(admin, task.id);
    await service.settled(task.id);
    expect(executor.ran).toEqual(['gate', 'c']);
    expect(await service.get(admin, task.id)).toMatchObject({ status: 'completed', done_files: 3 });
  });

  it('key holders see and touch only their own tasks; clear-completed drops only completed ones', async () => {
    executor.failing.add('x');
    const mine = await service.create(key, { type: 'copy', name: 'k', options: {}, items: items('a') });
    const admins = await service.create(admin, { type: 'copy', name: 'a', options: {}, items: items('x') });
    await service.settled(mine.id);
    await service.settled(admins.id);
    expect((await service.list(key, { limit: 50, offset: 0 })).items.map((t) => t.id)).toEqual([mine.id]);
    expect((await service.list(admin, { limit: 50, offset: 0 })).total).toBe(2);
    await expect(service.get(key, admins.id)).rejects.toMatchObject({ kind: 'NOT_FOUND' });
    await expect(service.retry(key, admins.id)).rejects.toMatchObject({ kind: 'NOT_FOUND' });
    await expect(service.retry(key, mine.id)).rejects.toMatchObject({ kind: 'CONFLICT' });
    expect(await service.clearCompleted(admin)).toEqual({ cleared: 1 });
    expect((await service.list(admin, { limit: 50, offset: 0 })).items.map((t) => t.status)).toEqual(['failed']);
  });
});
