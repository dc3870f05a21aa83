// Server-side jobs kept in the database (tasks + task_items, migration 0011): one generic runner walks a
// task's pending items through the executor of its type, records per-file status, bytes and speed, and
// answers cancel, retry of failed files and clear-completed.
// Several instances (migration 0017): a running task is leased to its runner (`runner`, `lease_until`),
// renewed while it runs. Every instance polls for tasks to claim (`startClaiming`): pending ones and running
// ones whose lease ran out because their instance died; the claimer resumes the unfinished items, acting as
// the task's creator. A graceful stop hands its tasks back (pending) so another instance takes them at once.
import type { TaskItemStatus, TaskStatus, TaskType, TaskView } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { isoNow, type Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/ids.js';
import type { Logger } from '../../../lib/logger.js';
import type { TaskItemRow, TaskRepository, TaskRow } from '../../../repositories/taskRepository.js';
import { creatorId, type Principal } from '../../../auth/principal.js';
import { RETRYABLE, taskView } from './taskViews.js';

/** Progress is written to the database at most this often while bytes flow (and at every file's end). */
const PROGRESS_WRITE_MS = 1000;

export interface TaskRunContext {
  principal: Principal;
  signal: AbortSignal;
  options: Record<string, unknown>;
  /** Bytes moved so far for the current item (called as they flow). */
  onBytes(n: number): void;
}

/** Does one item of a task of its type; throws to fail the item. */
export interface TaskExecutor {
  /** `size`: the item's real size when it was not known in advance (a download without Content-Length). */
  runItem(ctx: TaskRunContext, item: TaskItemRow): Promise<{ skipped?: boolean; size?: number }>;
}

export interface NewTaskItem {
  source: string;
  target: string;
  isDir: boolean;
  size: number;
}

interface Run {
  controller: AbortController;
  done: Promise<void>;
  /** Set when the process is stopping or lost the lease: the run leaves the items as they are. */
  shutdown: boolean;
}

export interface TaskServiceDeps {
  tasks: TaskRepository;
  clock: Clock;
  logger: Logger;
  /** The creator of a task claimed from the database (another instance started it); undefined when gone. */
  principalOf?: (createdBy: string) => Promise<Principal | undefined>;
  /** How long a claim holds without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** SQLite: one instance, so a task another runner left running is dead whatever its lease. */
  singleInstance?: boolean;
  /** This instance's id (the cluster's); a fresh one by default. */
  runnerId?: string;
  /** Tasks this instance runs at once when claiming (default 4). */
  maxClaimed?: number;
}

export const DEFAULT_TASK_LEASE_MS = 30_000;

export class TaskService {
  private readonly running = new Map<string, Run>();
  private readonly executors = new Map<TaskType, TaskExecutor>();
  /** Identifies this process in `tasks.runner`. */
  readonly runnerId: string;

  private claimTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly deps: TaskServiceDeps) {
    this.runnerId = deps.runnerId ?? newId();
  }

  private get leaseMs(): number {
    return this.deps.leaseMs ?? DEFAULT_TASK_LEASE_MS;
  }

  private leaseUntil(): string {
    return new Date(this.deps.clock.now().getTime() + this.leaseMs).toISOString();
  }

  /** Polls for tasks to claim (pending, or abandoned by a dead instance): now, then every `everyMs`. */
  startClaiming(everyMs = 5000): void {
    this.stopClaiming();
    this.stopping = false;
    const tick = () => {
      this.claiming ??= this.claimAll()
        .then(() => undefined)
        .catch((error: unknown) => this.deps.logger.error('task claim failed', error))
        .finally(() => {
          this.claiming = undefined;
        });
    };
    tick();
    this.claimTimer = setInterval(tick, everyMs);
    this.claimTimer.unref();
  }

  private stopClaiming(): void {
    if (this.claimTimer) clearInterval(this.claimTimer);
    this.claimTimer = undefined;
  }

  /** Claims and starts tasks until none is left or this instance runs `maxClaimed`; answers how many. */
  async claimAll(): Promise<number> {
    let claimed = 0;
    while (!this.stopping && this.running.size < (this.deps.maxClaimed ?? 4)) {
      const row = await this.deps.tasks.claimNext({
        runner: this.runnerId,
        now: isoNow(this.deps.clock),
        leaseUntil: this.leaseUntil(),
        foreignIsDead: this.deps.singleInstance ?? false,
        exclude: [...this.running.keys()],
      });
      if (!row) break;
      claimed += 1;
      const principal = await this.deps.principalOf?.(row.created_by);
      if (!principal) {
        const now = isoNow(this.deps.clock);
        await this.deps.tasks.transition(row.id, ['running'], {
          status: 'failed',
          runner: null,
          lease_until: null,
          error: 'the API key or admin that started this task no longer exists',
          finished_at: now,
          updated_at: now,
        });
        continue;
      }
      this.deps.logger.info(`task ${row.id} claimed by this instance (resumed)`);
      this.start(row.id, principal, true);
    }
    return claimed;
  }

  register(type: TaskType, executor: TaskExecutor): void {
    this.executors.set(type, executor);
  }

  /** Records a task with its items and starts it in the background; answers it as stored. */
  async create(
    principal: Principal,
    input: {
      type: TaskType;
      name: string;
      options: Record<string, unknown>;
      items: NewTaskItem[];
      /** The task's id when the caller needs it before the task starts (default: a new one). */
      id?: string;
    },
  ): Promise<TaskView> {
    const now = isoNow(this.deps.clock);
    const task: TaskRow = {
      id: input.id ?? newId(),
      type: input.type,
      status: 'pending',
      name: input.name,
      options_json: JSON.stringify(input.options),
      total_files: input.items.filter((item) => !item.isDir).length,
      done_files: 0,
      failed_files: 0,
      total_bytes: input.items.reduce((sum, item) => sum + item.size, 0),
      bytes_done: 0,
      speed: 0,
      error: null,
      runner: null,
      lease_until: null,
      created_by: creatorId(principal),
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    };
    const items: TaskItemRow[] = input.items.map((item, seq) => ({
      task_id: task.id,
      seq,
      source: item.source,
      target: item.target,
      is_dir: item.isDir ? 1 : 0,
      size: item.size,
      bytes_done: 0,
      status: 'pending',
      skipped: 0,
      error: null,
      updated_at: now,
    }));
    await this.deps.tasks.insert(task, items);
    this.start(task.id, principal);
    return taskView(task);
  }

  async list(principal: Principal, query: { status?: TaskStatus; limit: number; offset: number }) {
    const { rows, total } = await this.deps.tasks.list({ ...query, createdBy: this.ownerFilter(principal) });
    return { items: rows.map((row) => taskView(row)), total, limit: query.limit, offset: query.offset };
  }

  async get(principal: Principal, id: string): Promise<TaskView> {
    const row = await this.owned(principal, id);
    return taskView(row, await this.deps.tasks.items(id));
  }

  /** Stops a pending or running task; files already copied stay, the rest stay pending (retry resumes). */
  async cancel(principal: Principal, id: string): Promise<TaskView> {
    const row = await this.owned(principal, id);
    const now = isoNow(this.deps.clock);
    const changed = await this.deps.tasks.transition(id, ['pending', 'running'], {
      status: 'cancelled',
      runner: null,
      speed: 0,
      updated_at: now,
      finished_at: now,
    });
    if (!changed) throw AppError.conflict(`task ${id} is already ${row.status}`);
    const run = this.running.get(id);
    if (run) {
      run.controller.abort(new AppError('CONFLICT', 'task cancelled'));
      await run.done;
    }
    return this.get(principal, id);
  }

  /** Runs a failed, partial or cancelled task again: its failed and unfinished files only. */
  async retry(principal: Principal, id: string): Promise<TaskView> {
    const row = await this.owned(principal, id);
    if (!RETRYABLE.includes(row.status as TaskStatus) || this.running.has(id))
      throw AppError.conflict(`task ${id} is ${row.status}: only failed, partial or cancelled tasks can be retried`);
    const now = isoNow(this.deps.clock);
    await this.deps.tasks.resetForRetry(id, now);
    const changed = await this.deps.tasks.transition(id, [...RETRYABLE], {
      status: 'pending',
      finished_at: null,
      updated_at: now,
    });
    if (!changed) throw AppError.conflict(`task ${id} changed meanwhile, try again`);
    this.start(id, principal);
    return this.get(principal, id);
  }

  /** Tasks per status in the database (every instance's): for metrics. */
  async countsByStatus(): Promise<Record<string, number>> {
    return this.deps.tasks.countByStatus();
  }

  get runningHere(): number {
    return this.running.size;
  }

  /** Deletes the caller's completed tasks (an admin: everyone's). */
  async clearCompleted(principal: Principal): Promise<{ cleared: number }> {
    return { cleared: await this.deps.tasks.deleteCompleted(this.ownerFilter(principal)) };
  }

  /**
   * Stops every run of this process and hands the tasks back (pending: another instance, or the next start,
   * resumes them). `abandon`: leave the rows as a killed process would (tests of lease expiry).
   */
  async close(options: { abandon?: boolean } = {}): Promise<void> {
    this.stopping = true;
    this.stopClaiming();
    await this.claiming;
    const runs = [...this.running.entries()];
    for (const [, run] of runs) {
      run.shutdown = true;
      run.controller.abort(new AppError('UNAVAILABLE', 'server stopping'));
    }
    await Promise.all(runs.map(([, run]) => run.done));
    if (options.abandon) return;
    const now = isoNow(this.deps.clock);
    for (const [id] of runs)
      await this.deps.tasks
        .release(id, this.runnerId, now)
        .catch((error: unknown) => this.deps.logger.error(`task ${id} could not be handed back`, error));
  }

  /** Resolves when the task's current run (if any) has ended: for tests and graceful stops. */
  async settled(id: string): Promise<void> {
    await this.running.get(id)?.done;
  }

  /**
   * Resolves with the task once it ended (completed, partial, failed or cancelled): its run here, else (run by
   * another instance) its row polled every `pollMs`. For requests that wait for their task (WebDAV COPY / MOVE).
   */
  async finished(id: string, pollMs = 200): Promise<TaskRow> {
    await this.settled(id);
    for (;;) {
      const row = await this.deps.tasks.find(id);
      if (!row) throw AppError.notFound(`task ${id} not found`);
      if (row.status !== 'pending' && row.status !== 'running') return row;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      await this.settled(id);
    }
  }

  private ownerFilter(principal: Principal): string | undefined {
    return principal.type === 'admin' ? undefined : creatorId(principal);
  }

  private async owned(principal: Principal, id: string): Promise<TaskRow> {
    const row = await this.deps.tasks.find(id);
    const owner = this.ownerFilter(principal);
    if (!row || (owner !== undefined && row.created_by !== owner)) throw AppError.notFound(`task ${id} not found`);
    return row;
  }

  private start(id: string, principal: Principal, claimed = false): void {
    const run: Run = { controller: new AbortController(), done: Promise.resolve(), shutdown: false };
    run.done = this.run(id, principal, run, claimed)
      .catch((error: unknown) => this.deps.logger.error(`task ${id} stopped on an error`, error))
      .finally(() => {
        // A run that found the task claimed meanwhile (by this instance's poller) leaves that run's entry.
        if (this.running.get(id) === run) this.running.delete(id);
      });
    this.running.set(id, run);
  }

  private async run(id: string, principal: Principal, run: Run, alreadyClaimed: boolean): Promise<void> {
    const { tasks, clock } = this.deps;
    const startedAt = clock.now().getTime();
    const claimed =
      alreadyClaimed ||
      (await tasks.transition(id, ['pending'], {
        status: 'running',
        runner: this.runnerId,
        lease_until: this.leaseUntil(),
        speed: 0,
        started_at: new Date(startedAt).toISOString(),
        updated_at: new Date(startedAt).toISOString(),
      }));
    const row = await tasks.find(id);
    if (!claimed || !row || row.runner !== this.runnerId) return;
    if (row.started_at === null) await tasks.update(id, { started_at: new Date(startedAt).toISOString() });
    // Heartbeat: renew the lease; a lost lease (cancelled elsewhere, or taken over after a stall) stops the run.
    const heartbeat = setInterval(
      () => {
        tasks
          .renewLease(id, this.runnerId, this.leaseUntil())
          .then((ours) => {
            if (ours || run.controller.signal.aborted) return;
            run.shutdown = true;
            run.controller.abort(new AppError('CONFLICT', 'task no longer held by this instance'));
          })
          .catch((error: unknown) => this.deps.logger.error(`task ${id}: lease renewal failed`, error));
      },
      Math.max(Math.floor(this.leaseMs / 3), 10),
    );
    heartbeat.unref();
    try {
      await this.runItems(id, principal, run, row, startedAt);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async runItems(id: string, principal: Principal, run: Run, row: TaskRow, startedAt: number): Promise<void> {
    const { tasks, clock } = this.deps;
    const executor = this.executors.get(row.type as TaskType);
    const options = JSON.parse(row.options_json) as Record<string, unknown>;
    const counters = {
      done: row.done_files,
      failed: row.failed_files,
      bytes: row.bytes_done,
      runBytes: 0,
      totalBytes: row.total_bytes,
    };
    let lastWrite = startedAt;
    const writeProgress = async (force: boolean) => {
      const now = clock.now().getTime();
      if (!force && now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      const seconds = Math.max((now - startedAt) / 1000, 0.001);
      await tasks.update(id, {
        done_files: counters.done,
        failed_files: counters.failed,
        bytes_done: counters.bytes,
        total_bytes: counters.totalBytes,
        speed: Math.round(counters.runBytes / seconds),
        updated_at: new Date(now).toISOString(),
      });
    };

    for (const item of await tasks.items(id, ['pending'])) {
      if (run.controller.signal.aborted) break;
      const setItem = (status: TaskItemStatus, extra: Partial<TaskItemRow> = {}) =>
        tasks.updateItem(id, item.seq, { status, updated_at: isoNow(clock), ...extra });
      await setItem('downloading');
      let itemBytes = 0;
      try {
        if (!executor) throw new Error(`no executor for ${row.type} tasks`);
        const result = await executor.runItem(
          {
            principal,
            signal: run.controller.signal,
            options,
            onBytes: (n) => {
              itemBytes += n;
              counters.bytes += n;
              counters.runBytes += n;
              void writeProgress(false).catch(() => undefined);
            },
          },
          item,
        );
        // A skipped file counts as done with its size, so progress reaches 100 %. An item whose size was not
        // known in advance (a download without Content-Length) takes the size the executor found.
        const size = result.size ?? item.size;
        counters.totalBytes += size - item.size;
        counters.bytes += size - itemBytes;
        if (!item.is_dir) counters.done += 1;
        await setItem('completed', { bytes_done: size, size, skipped: result.skipped ? 1 : 0 });
      } catch (error) {
        counters.bytes -= itemBytes;
        if (run.controller.signal.aborted) {
          // Cancelled or stopping: the file goes back to pending, a retry copies it again.
          if (!run.shutdown) await setItem('pending', { bytes_done: 0 });
          break;
        }
        if (!item.is_dir) counters.failed += 1;
        await setItem('failed', { bytes_done: 0, error: error instanceof Error ? error.message : String(error) });
      }
      await writeProgress(true);
    }
    if (run.shutdown) return;
    await writeProgress(true);
    const status: TaskStatus = counters.failed === 0 ? 'completed' : counters.done > 0 ? 'partial' : 'failed';
    const now = isoNow(clock);
    // Only a task still running ends here: a cancel already wrote its own final status.
    await tasks.transition(
      id,
      ['running'],
      {
        status,
        runner: null,
        lease_until: null,
        error: counters.failed > 0 ? `${counters.failed} file(s) failed` : null,
        finished_at: now,
        updated_at: now,
      },
      this.runnerId,
    );
  }
}
