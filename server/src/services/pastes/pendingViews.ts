import type { Logger } from '../../lib/logger.js';

/** How long uncounted views of unlimited pastes wait in memory before one transaction stores them. */
export const VIEW_FLUSH_INTERVAL_MS = 1000;

export interface ViewCountStore {
  /**
   * Adds each count to its row's views in one transaction; rows gone since are skipped. Answers each
   * written row's views after the write (what a read taken after its commit sees at least).
   */
  addViews(counts: ReadonlyMap<string, number>): Promise<ReadonlyMap<string, number>>;
}

/** A batch taken out of `pending`: its counts, and once written, the rows' views right after its commit. */
interface Batch {
  seq: number;
  counts: ReadonlyMap<string, number>;
  written: Promise<void>;
  /** Set when the write ended: views after the commit, or null when the write failed (the counts are lost). */
  after?: ReadonlyMap<string, number> | null;
}

/**
 * View counts of pastes without a view limit. Such a view needs no atomic check, so it is counted in
 * memory and written in batches: a read then costs no database write, which would otherwise be the most
 * expensive part of serving a paste (and would rewrite a 10 MB row per view on SQLite). Limited pastes
 * never come here: their count is the limit's guard and stays one atomic UPDATE per view.
 * Everything that shows a count reads its rows through `consistentRead` (or `countedRead`, the view path)
 * and adds `pendingOf`; a crash loses at most one interval of counts.
 */
export class PendingViews {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Batches taken out of `pending` so far, and those of them whose write has not finished. */
  private batchesTaken = 0;
  private batchesWriting = 0;
  /** Batches a running countedRead may still need (taken after its start or unwritten then), oldest first. */
  private batches: Batch[] = [];
  /** countedReads running, by the seq of the last batch written when they started. */
  private readonly readsSince = new Map<number, number>();
  private writtenSeq = 0;

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

  /**
   * Runs `read`, a database read of one row (the view path), and answers it with `views` as if every batch
   * taken so far were written, so `views + pendingOf(id)` is exact. Unlike `consistentRead` it neither waits
   * before reading nor reads twice when a write overlaps: a batch written meanwhile is in the row exactly when
   * the row's views reach what that write's UPDATE answered (views only grow, and a read before the commit
   * sees at most the views the UPDATE started from). Only a read that ends while a batch it may have missed
   * is still being written waits for that write (not for a second read). The one exception to "views only
   * grow", an owner resetting them just as a read overlaps a write, can show that read one batch too many.
   */
  async countedRead<T extends { id: string; views: number }>(
    read: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const start = this.writtenSeq;
    this.readsSince.set(start, (this.readsSince.get(start) ?? 0) + 1);
    try {
      const row = await read();
      if (!row) return row;
      const endSeq = this.batchesTaken;
      for (;;) {
        const unwritten = this.batches.find((b) => b.seq > start && b.seq <= endSeq && b.after === undefined);
        if (!unwritten) break;
        await unwritten.written;
      }
      let missed = 0;
      for (const batch of this.batches) {
        if (batch.seq <= start) continue;
        const n = batch.counts.get(row.id);
        if (n === undefined) continue;
        // Taken after the read ended: not in it. Written: in it when the row reached the write's answer.
        if (batch.seq > endSeq) missed += n;
        else if (batch.after) {
          const after = batch.after.get(row.id);
          if (after !== undefined && row.views < after) missed += n;
        }
      }
      return missed === 0 ? row : { ...row, views: row.views + missed };
    } finally {
      const left = (this.readsSince.get(start) ?? 1) - 1;
      if (left > 0) this.readsSince.set(start, left);
      else this.readsSince.delete(start);
      this.forgetBatches();
    }
  }

  /** Drops written batches no running countedRead can need. */
  private forgetBatches(): void {
    const oldest = Math.min(this.writtenSeq, ...this.readsSince.keys());
    for (let first = this.batches[0]; first && first.seq <= oldest; first = this.batches[0]) this.batches.shift();
  }

  /** Writes what is pending now (on a timer, before backups, on shutdown, in tests). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return this.flushing;
    const counts = this.pending;
    this.pending = new Map();
    this.batchesTaken += 1;
    this.batchesWriting += 1;
    // `written` is set below, to the end of this batch's own write.
    const batch: Batch = { seq: this.batchesTaken, counts, written: this.flushing };
    this.batches.push(batch);
    this.flushing = this.flushing.then(() =>
      this.deps.store
        .addViews(counts)
        .then(
          (after) => {
            batch.after = after;
          },
          (error: unknown) => {
            batch.after = null;
            this.deps.logger.error('paste view counts', error);
          },
        )
        .finally(() => {
          this.batchesWriting -= 1;
          this.writtenSeq = batch.seq;
          this.forgetBatches();
        }),
    );
    batch.written = this.flushing;
    return this.flushing;
  }
}
