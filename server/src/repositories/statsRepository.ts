import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export class StatsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds to a day's counter in one statement (safe under concurrency on SQLite and PostgreSQL). */
  async increment(day: string, metric: string, by = 1): Promise<void> {
    await this.db
      .insertInto('daily_stats')
      .values({ day, metric, value: by })
      .onConflict((oc) => oc.columns(['day', 'metric']).doUpdateSet({ value: sql`daily_stats.value + ${by}` }))
      .execute();
  }

  since(firstDay: string) {
    return this.db.selectFrom('daily_stats').select(['day', 'metric', 'value']).where('day', '>=', firstDay).execute();
  }
}
