import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, TaskItemsTable, TasksTable } from '../db/schema.js';

export type TaskRow = Selectable<TasksTable>;
export type TaskItemRow = Selectable<TaskItemsTable>;
export type TaskProgress = Pick<TaskRow, 'done_files' | 'failed_files' | 'bytes_done' | 'speed' | 'updated_at'>;

const ITEM_INSERT_BATCH = 500;

function taskRow(row: TaskRow): TaskRow {
  return {
    ...row,
    total_files: Number(row.total_files),
    done_files: Number(row.done_files),
    failed_files: Number(row.failed_files),
    total_bytes: Number(row.total_bytes),
    bytes_done: Number(row.bytes_done),
    speed: Number(row.speed),
  };
}

function itemRow(row: TaskItemRow): TaskItemRow {
  return { ...row, seq: Number(row.seq), size: Number(row.size), bytes_done: Number(row.bytes_done) };
}

/** Server-side jobs and their files (0011). */
export class TaskRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  /** The task and its items, in one transaction. */
  async insert(task: TaskRow, items: TaskItemRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('tasks').values(task).execute();
      for (let i = 0; i < items.length; i += ITEM_INSERT_BATCH) {
        await trx
          .insertInto('task_items')
          .values(items.slice(i, i + ITEM_INSERT_BATCH))
          .execute();
      }
    });
  }

  async find(id: string): Promise<TaskRow | undefined> {
    const row = await this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && taskRow(row);
  }

  async list(filter: { createdBy?: string; status?: string; limit: number; offset: number }) {
    let query = this.db.selectFrom('tasks');
    if (filter.createdBy !== undefined) query = query.where('created_by', '=', filter.createdBy);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(taskRow), total: Number(total.n) };
  }

  /** Tasks of one type a creator has pending or running. */
  async countActive(createdBy: string, type: string): Promise<number> {
    const row = await this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_by', '=', createdBy)
      .where('type', '=', type)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async items(taskId: string, statuses?: string[]): Promise<TaskItemRow[]> {
    let query = this.db.selectFrom('task_items').selectAll().where('task_id', '=', taskId);
    if (statuses) query = query.where('status', 'in', statuses);
    return (await query.orderBy('seq').execute()).map(itemRow);
  }

  async update(id: string, values: Partial<TaskRow>): Promise<void> {
    await this.db.updateTable('tasks').set(values).where('id', '=', id).execute();
  }

  /** Sets the status only while the task is in one of `from` (compare-and-set); answers whether it changed. */
  async transition(id: string, from: string[], values: Partial<TaskRow>, runner?: string): Promise<boolean> {
    let query = this.db.updateTable('tasks').set(values).where('id', '=', id).where('status', 'in', from);
    if (runner !== undefined) query = query.where('runner', '=', runner);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async updateItem(taskId: string, seq: number, values: Partial<TaskItemRow>): Promise<void> {
    await this.db.updateTable('task_items').set(values).where('task_id', '=', taskId).where('seq', '=', seq).execute();
  }

  /** Failed (and left-over running) items back to pending, for a retry; counters recomputed from the items. */
  async resetForRetry(taskId: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('task_items')
        .set({ status: 'pending', error: null, bytes_done: 0, updated_at: now })
        .where('task_id', '=', taskId)
        .where('status', 'in', ['failed', 'downloading'])
        .execute();
      const done = await trx
        .selectFrom('task_items')
        .select((eb) => [
          eb.fn.countAll<number>().as('n'),
          eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'),
        ])
        .where('task_id', '=', taskId)
        .where('status', '=', 'completed')
        .where('is_dir', '=', 0)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('tasks')
        .set({
          done_files: Number(done.n),
          failed_files: 0,
          bytes_done: Number(done.bytes),
          error: null,
          updated_at: now,
        })
        .where('id', '=', taskId)
        .execute();
    });
  }

  /**
   * Claims one task for `runner` until `leaseUntil`: a pending one, or a running one whose lease ran out (its
   * instance died). PostgreSQL: `FOR UPDATE SKIP LOCKED`, so instances claiming at once never take the same
   * row. `foreignIsDead`: SQLite (one instance), where a task another runner left running is dead whatever
   * its lease. Items a dead runner was in the middle of go back to pending and the counters are recomputed
   * from the items, so the new run resumes where the old one stopped. Answers the claimed row.
   */
  async claimNext(claim: {
    runner: string;
    now: string;
    leaseUntil: string;
    foreignIsDead: boolean;
    exclude: string[];
  }): Promise<TaskRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('tasks')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('status', '=', 'pending'),
            eb.and([
              eb('status', '=', 'running'),
              eb.or([
                eb('lease_until', 'is', null),
                eb('lease_until', '<', claim.now),
                ...(claim.foreignIsDead ? [eb('runner', 'is', null), eb('runner', '!=', claim.runner)] : []),
              ]),
            ]),
          ]),
        );
      if (claim.exclude.length > 0) query = query.where('id', 'not in', claim.exclude);
      query = query.orderBy('created_at').orderBy('id').limit(1);
      if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const picked = await query.executeTakeFirst();
      if (!picked) return undefined;
      await trx
        .updateTable('task_items')
        .set({ status: 'pending', bytes_done: 0, updated_at: claim.now })
        .where('task_id', '=', picked.id)
        .where('status', '=', 'downloading')
        .execute();
      await trx
        .updateTable('tasks')
        .set({
          ...(await this.countersOf(trx, picked.id)),
          status: 'running',
          runner: claim.runner,
          lease_until: claim.leaseUntil,
          speed: 0,
          updated_at: claim.now,
        })
        .where('id', '=', picked.id)
        .execute();
      const row = await trx.selectFrom('tasks').selectAll().where('id', '=', picked.id).executeTakeFirstOrThrow();
      return taskRow(row);
    });
  }

  /** How many tasks are in each status (metrics). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('tasks')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  /** Renews the lease of a task this runner still runs; false when it is no longer its (cancelled, taken over). */
  async renewLease(id: string, runner: string, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ lease_until: leaseUntil })
      .where('id', '=', id)
      .where('runner', '=', runner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A stopping runner hands its task back: pending again, claimed at once by another instance (or a restart). */
  async release(id: string, runner: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('tasks')
        .set({ status: 'pending', runner: null, lease_until: null, speed: 0, updated_at: now })
        .where('id', '=', id)
        .where('runner', '=', runner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return;
      await trx
        .updateTable('task_items')
        .set({ status: 'pending', bytes_done: 0, updated_at: now })
        .where('task_id', '=', id)
        .where('status', '=', 'downloading')
        .execute();
    });
  }

  private async countersOf(trx: Transaction<Database>, taskId: string) {
    const rows = await trx
      .selectFrom('task_items')
      .select((eb) => [
        'status',
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'),
      ])
      .where('task_id', '=', taskId)
      .where('is_dir', '=', 0)
      .where('status', 'in', ['completed', 'failed'])
      .groupBy('status')
      .execute();
    const of = (status: string) => rows.find((row) => row.status === status);
    return {
      done_files: Number(of('completed')?.n ?? 0),
      failed_files: Number(of('failed')?.n ?? 0),
      bytes_done: Number(of('completed')?.bytes ?? 0),
    };
  }

  /** Deletes finished-without-error tasks (and their items); answers how many. */
  async deleteCompleted(createdBy?: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('tasks').select('id').where('status', '=', 'completed');
      if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
      const ids = (await query.execute()).map((row) => row.id);
      if (ids.length === 0) return 0;
      await trx.deleteFrom('task_items').where('task_id', 'in', ids).execute();
      await trx.deleteFrom('tasks').where('id', 'in', ids).execute();
      return ids.length;
    });
  }
}
