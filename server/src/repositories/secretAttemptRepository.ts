import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** What one reservation asks for; times are ISO strings (they compare as text on both databases). */
export interface ReserveRequest {
  bucket: string;
  limit: number;
  now: string;
  /** When a window opened now would end. */
  newWindowEndsAt: string;
  /** Checks reserved before this are taken as lost (a crashed process) and no longer hold a slot. */
  staleBefore: string;
}

export interface ReserveResult {
  granted: boolean;
  /** Failures in the current window. */
  failures: number;
  windowEndsAt: string;
}

export type AttemptOutcome = 'failure' | 'success' | 'reset' | 'void';

/**
 * The limiter's counters, one row per bucket, each change one atomic statement, so every instance
 * sharing the database sees the same counts however many checks run at once.
 */
export class SecretAttemptRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes a slot when failures plus checks in flight are under the limit; answers the counts either way. */
  async reserve(r: ReserveRequest): Promise<ReserveResult> {
    const failures = sql<number>`case when secret_attempts.window_ends_at <= ${r.now} then 0 else secret_attempts.failures end`;
    const pending = sql<number>`case when secret_attempts.pending_at <= ${r.staleBefore} then 0 else secret_attempts.pending end`;
    const fits = sql<boolean>`${failures} + ${pending} < ${r.limit}`;
    const row = await this.db
      .insertInto('secret_attempts')
      .values({
        bucket: r.bucket,
        failures: 0,
        pending: 1,
        granted: 1,
        window_ends_at: r.newWindowEndsAt,
        pending_at: r.now,
      })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          failures,
          pending: sql<number>`${pending} + case when ${fits} then 1 else 0 end`,
          granted: sql<number>`case when ${fits} then 1 else 0 end`,
          window_ends_at: sql<string>`case when secret_attempts.window_ends_at <= ${r.now} then ${r.newWindowEndsAt} else secret_attempts.window_ends_at end`,
          pending_at: sql<string>`case when ${fits} then ${r.now} else secret_attempts.pending_at end`,
        }),
      )
      .returning(['granted', 'failures', 'window_ends_at'])
      .executeTakeFirstOrThrow();
    return { granted: Number(row.granted) === 1, failures: Number(row.failures), windowEndsAt: row.window_ends_at };
  }

  /**
   * Gives the slot back and records what the check found: a failure counts in the window (opening a
   * new one when it ended), a reset clears the failures, success and void leave them as they are.
   */
  async settle(bucket: string, outcome: AttemptOutcome, now: string, newWindowEndsAt: string): Promise<void> {
    const released = sql<number>`case when secret_attempts.pending > 0 then secret_attempts.pending - 1 else 0 end`;
    if (outcome === 'failure') {
      const ended = sql<boolean>`secret_attempts.window_ends_at <= ${now}`;
      await this.db
        .insertInto('secret_attempts')
        .values({ bucket, failures: 1, pending: 0, granted: 0, window_ends_at: newWindowEndsAt, pending_at: now })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            failures: sql<number>`case when ${ended} then 1 else secret_attempts.failures + 1 end`,
            pending: released,
            window_ends_at: sql<string>`case when ${ended} then ${newWindowEndsAt} else secret_attempts.window_ends_at end`,
          }),
        )
        .execute();
      return;
    }
    await this.db
      .updateTable('secret_attempts')
      .set(outcome === 'reset' ? { pending: released, failures: 0 } : { pending: released })
      .where('bucket', '=', bucket)
      .execute();
  }

  /** Drops buckets whose window ended and that hold no live check. */
  async sweep(now: string, staleBefore: string): Promise<number> {
    const result = await this.db
      .deleteFrom('secret_attempts')
      .where('window_ends_at', '<=', now)
      .where((eb) => eb.or([eb('pending', '=', 0), eb('pending_at', '<=', staleBefore)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
