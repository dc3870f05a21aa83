import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../../db/database.js';
import { systemClock } from '../../../lib/clock.js';
import { createLogger } from '../../../lib/logger.js';
import { TaskRepository, type TaskItemRow } from '../../../repositories/taskRepository.js';
import type { AdminPrincipal, ApiKeyPrincipal } from '../../../auth/principal.js';
import { TaskService, type TaskRunContext } from './taskService.js';

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

  const build = (extra: { leaseMs?: number; singleInstance?: boolean } = {}) => {
    const s = new TaskService({
      tasks: new TaskRepository(database.db),
      clock: systemClock,
      logger: createLogger('silent'),
      principalOf: async (createdBy) => (createdBy === admin.adminId ? admin : undefined),
      ...extra,
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

  it('a graceful stop hands a running task back; the next instance claims it and resumes the unfinished files', async () => {
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'gate', 'c') });
    await executor.atGate;
    await service.close();
    const handedBack = await service.get(admin, task.id);
    expect(handedBack.status).toBe('pending');
    expect(handedBack.items?.map((i) => i.status)).toEqual(['completed', 'pending', 'pending']);
    executor = new FakeExecutor();
    executor.open();
    service = build();
    expect(await service.claimAll()).toBe(1);
    await service.settled(task.id);
    expect(executor.ran).toEqual(['gate', 'c']);
    expect(await service.get(admin, task.id)).toMatchObject({ status: 'completed', done_files: 3, bytes_done: 30 });
  });

  it('a task whose instance died is claimed once its lease ran out (at once on SQLite), never while it is held', async () => {
    service = build({ leaseMs: 60_000 });
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'gate', 'c') });
    await executor.atGate;
    // Another instance while the lease holds: nothing to claim.
    const other = build({ leaseMs: 60_000 });
    expect(await other.claimAll()).toBe(0);
    // The first one dies (no hand-back, like SIGKILL): still held for the lease…
    await service.close({ abandon: true });
    expect(await other.claimAll()).toBe(0);
    // …but on SQLite there is one instance, so a foreign runner's task is dead at once.
    executor = new FakeExecutor();
    executor.open();
    service = build({ leaseMs: 60_000, singleInstance: true });
    expect(await service.claimAll()).toBe(1);
    await service.settled(task.id);
    expect(executor.ran).toEqual(['gate', 'c']);
    const done = await service.get(admin, task.id);
    expect(done).toMatchObject({ status: 'completed', done_files: 3, failed_files: 0, bytes_done: 30 });
    await other.close();
  });

  it('an expired lease is claimed by another instance; a task whose creator is gone fails', async () => {
    service = build({ leaseMs: 30 });
    const task = await service.create(admin, { type: 'copy', name: 't', options: {}, items: items('a', 'gate') });
    await executor.atGate;
    await service.close({ abandon: true });
    await new Promise((resolve) => setTimeout(resolve, 60));
    executor.open();
    service = build({ leaseMs: 30 });
    expect(await service.claimAll()).toBe(1);
    await service.settled(task.id);
    expect((await service.get(admin, task.id)).status).toBe('completed');
    const orphan = await service.create(key, { type: 'copy', name: 'k', options: {}, items: items('gate') });
    executor = new FakeExecutor();
    await service.close({ abandon: true });
    service = build({ singleInstance: true });
    service.register('copy', executor);
    expect(await service.claimAll()).toBe(1);
    expect(await service.get(admin, orphan.id)).toMatchObject({ status: 'failed', error: /no longer exists/ });
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
