import type { Kysely, Migration } from 'kysely';

/**
 * Several instances on one database:
 * - `tasks.lease_until`: a running task belongs to `runner` until this ISO time; the runner renews it while
 *   it works (heartbeat). Another instance claims a task whose lease ran out (its instance died) and resumes it.
 * - `job_runs`: when each periodic background job (sweeps, …) last ran and where, so a job due every N minutes
 *   runs once per period whichever instance gets to it first (taken under an advisory lock on PostgreSQL).
 */
export const scaleOut: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async up(db: Kysely<any>) {
    await db.schema.alterTable('tasks').addColumn('lease_until', 'varchar(32)').execute();
    await db.schema.createIndex('tasks_status_lease').on('tasks').columns(['status', 'lease_until']).execute();
    await db.schema
      .createTable('job_runs')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('last_run_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_instance', 'varchar(64)', (c) => c.notNull())
      .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see an untyped database
  async down(db: Kysely<any>) {
    await db.schema.dropTable('job_runs').execute();
    await db.schema.dropIndex('tasks_status_lease').execute();
    await db.schema.alterTable('tasks').dropColumn('lease_until').execute();
  },
};
