import type { Logger } from '../lib/logger.js';

/** How long uncounted views of unlimited pastes wait in memory before one transaction stores them. */
export const VIEW_FLUSH_INTERVAL_MS = 1000;

export interface ViewCountStore {
  /** Adds each count to its row's views in one transaction; rows gone since are skipped. */
  addViews(counts: ReadonlyMap<string, number>): Promise<void>;
}

/**
 * View counts of pastes without a view limit. Such a view needs no atomic check, so it is counted in
 * memory and written in batches: a read then costs no database write, which would otherwise be the most
 * expensive part of serving a paste (and would rewrite a 10 MB row per view on SQLite). Limited pastes
 * never come here: their count is the limit's guard and stays one atomic UPDATE per view.
 * Everything that shows a count reads its rows through `consistentRead` and adds `pendingOf`; a crash
 * loses at most one interval of counts.
 */
export class PendingViews {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Batches taken out of `pending` so far, and those of them whose write has not finished. */
  private batchesTaken = 0;
  private batchesWriting = 0;

  constructor(private readonly deps: { store: ViewCountStore; logger: Logger; intervalMs?: number }) {}

  /** Counts one view; answers the views not yet written for this paste, this one included. */
  add(id: string): number {
    const count = (this.pending.get(id) ?? 0) + 1;
    this.pending.set(id, count);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.deps.intervalMs ?? VIEW_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
    return count;
  }

  pendingOf(id: string): number {
    return this.pending.get(id) ?? 0;
  }

  /**
   * Runs `read`, a database read of rows whose views are then shown with `pendingOf`, so that the two
   * agree. A batch leaves `pending` when its write starts, before it commits: a read that overlaps a
   * write could miss its counts in both places, so it waits for the write and reads again.
   */
  async consistentRead<T>(read: () => Promise<T>): Promise<T> {
    for (;;) {
      // A loop: a batch taken while this waited is chained on after the one it waited for.
      while (this.batchesWriting > 0) await this.flushing;
      const taken = this.batchesTaken;
      const result = await read();
      if (this.batchesTaken === taken && this.batchesWriting === 0) return result;
    }
  }

  /** Writes what is pending now (on a timer, before backups, on shutdown, in tests). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return this.flushing;
    const batch = this.pending;
    this.pending = new Map();
    this.batchesTaken += 1;
    this.batchesWriting += 1;
    this.flushing = this.flushing.then(() =>
      this.deps.store
        .addViews(batch)
        .catch((error: unknown) => this.deps.logger.error('paste view counts', error))
        .finally(() => {
          this.batchesWriting -= 1;
        }),
    );
    return this.flushing;
  }
}
