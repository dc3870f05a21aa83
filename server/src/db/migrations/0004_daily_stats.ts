import type { Kysely, Migration } from 'kysely';

/** Per-day counters (views, downloads) for the dashboard chart: one row per day and metric. */
export const dailyStats: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('daily_stats')
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('metric', 'varchar(32)', (c) => c.notNull())
      .addColumn('value', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('daily_stats_pk', ['day', 'metric'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('daily_stats').execute();
  },
};
