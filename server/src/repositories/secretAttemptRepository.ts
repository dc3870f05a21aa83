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

/** Recorded when a failure fills the bucket: who is blocked and through which door. */
export interface BlockInfo {
  limit: number;
  /** The client's address bucket (IPv4, or an IPv6 /64). */
  client: string;
  door: string;
}

/** A bucket that is full now (the admin's list of blocked addresses). */
export interface BlockedRow {
  bucket: string;
  client: string;
  door: string;
  failures: number;
  blocked_at: string | null;
  window_ends_at: string;
}

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
  async settle(
    bucket: string,
    outcome: AttemptOutcome,
    now: string,
    newWindowEndsAt: string,
    block?: BlockInfo,
  ): Promise<void> {
    const released = sql<number>`case when secret_attempts.pending > 0 then secret_attempts.pending - 1 else 0 end`;
    if (outcome === 'failure') {
      const ended = sql<boolean>`secret_attempts.window_ends_at <= ${now}`;
      const failures = sql<number>`case when ${ended} then 1 else secret_attempts.failures + 1 end`;
      // Reaching the limit records who is blocked, through which door and since when; a new window forgets it.
      const limit = block?.limit ?? Number.MAX_SAFE_INTEGER;
      const reached = sql<boolean>`${failures} >= ${limit}`;
      const kept = (column: 'client' | 'door' | 'blocked_at') =>
        sql<string | null>`case when ${ended} then null else secret_attempts.${sql.ref(column)} end`;
      const first = block !== undefined && limit <= 1;
      await this.db
        .insertInto('secret_attempts')
        .values({
          bucket,
          failures: 1,
          pending: 0,
          granted: 0,
          window_ends_at: newWindowEndsAt,
          pending_at: now,
          client: first ? block.client : null,
          door: first ? block.door : null,
          blocked_at: first ? now : null,
        })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            failures,
            pending: released,
            window_ends_at: sql<string>`case when ${ended} then ${newWindowEndsAt} else secret_attempts.window_ends_at end`,
            client: sql<string | null>`case when ${reached} then ${block?.client ?? null} else ${kept('client')} end`,
            door: sql<string | null>`case when ${reached} then ${block?.door ?? null} else ${kept('door')} end`,
            blocked_at: sql<
              string | null
            >`case when ${reached} then coalesce(${kept('blocked_at')}, ${now}) else ${kept('blocked_at')} end`,
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

  /** Buckets blocked now (their limit reached in a window that has not ended), the newest block first. */
  async blocked(now: string): Promise<BlockedRow[]> {
    const rows = await this.db
      .selectFrom('secret_attempts')
      .select(['bucket', 'client', 'door', 'failures', 'blocked_at', 'window_ends_at'])
      .where('window_ends_at', '>', now)
      .where('client', 'is not', null)
      .orderBy('blocked_at', 'desc')
      .orderBy('bucket')
      .execute();
    return rows.map((r) => ({ ...r, client: r.client ?? '', door: r.door ?? '', failures: Number(r.failures) }));
  }

  /** Clears a bucket (the admin unblocks an address): its next attempt starts a new window. Answers whether it existed. */
  async clear(bucket: string): Promise<boolean> {
    const result = await this.db.deleteFrom('secret_attempts').where('bucket', '=', bucket).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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
