import { describe, expect, it, vi } from 'vitest';
import { PendingViews } from './pendingViews.js';

const logger = { error: vi.fn(), info: vi.fn(), debug: vi.fn() };

describe('PendingViews', () => {
  it('counts per paste and writes everything pending in one batch', async () => {
    const writes: Map<string, number>[] = [];
    const views = new PendingViews({ store: { addViews: async (c) => void writes.push(new Map(c)) }, logger });
    expect(views.add('a')).toBe(1);
    expect(views.add('a')).toBe(2);
    views.add('b');
    expect(views.pendingOf('a')).toBe(2);
    await views.flush();
    expect(writes).toEqual([
      new Map([
        ['a', 2],
        ['b', 1],
      ]),
    ]);
    expect(views.pendingOf('a')).toBe(0);
    await views.flush();
    expect(writes).toHaveLength(1);
  });

  it('flushes on its own after the interval', async () => {
    vi.useFakeTimers();
    try {
      const addViews = vi.fn(async () => undefined);
      const views = new PendingViews({ store: { addViews }, logger, intervalMs: 1000 });
      views.add('a');
      views.add('a');
      await vi.advanceTimersByTimeAsync(1000);
      expect(addViews).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs a failed write instead of throwing, and keeps counting', async () => {
    const views = new PendingViews({
      store: {
        addViews: async () => {
          throw new Error('disk full');
        },
      },
      logger,
    });
    views.add('a');
    await expect(views.flush()).resolves.toBeUndefined();
    expect(logger.error).toHaveBeenCalled();
    expect(views.add('a')).toBe(1);
  });

  describe('consistentRead', () => {
    /** A store whose writes wait for `commit()`, over a row read as `{ views }`. */
    function gatedStore() {
      const row = { views: 0 };
      let commit = () => undefined as void;
      const store = {
        addViews: (counts: ReadonlyMap<string, number>) =>
          new Promise<void>((resolve) => {
            commit = () => {
              row.views += counts.get('a') ?? 0;
              resolve();
            };
          }),
      };
      return { row, store, commit: () => commit() };
    }

    it('waits for a batch being written before it reads', async () => {
      const { row, store, commit } = gatedStore();
      const views = new PendingViews({ store, logger });
      views.add('a');
      views.add('a');
      const flushed = views.flush();
      // Taken out of memory, not yet in the row: read now, the two views would be in neither.
      expect(row.views + views.pendingOf('a')).toBe(0);
      const reading = views.consistentRead(async () => ({ ...row }));
      setTimeout(commit, 10);
      const seen = await reading;
      expect(seen.views + views.pendingOf('a')).toBe(2);
      await flushed;
    });

    it('reads again when a batch starts to be written during the read', async () => {
      const { row, store, commit } = gatedStore();
      const views = new PendingViews({ store, logger });
      views.add('a');
      let reads = 0;
      let flushed: Promise<void> | undefined;
      const seen = await views.consistentRead(async () => {
        reads += 1;
        const snapshot = { ...row };
        if (reads === 1) {
          // The interval's flush fires while this read is on its way back.
          flushed = views.flush();
          setTimeout(commit, 10);
        }
        return snapshot;
      });
      expect(reads).toBe(2);
      expect(seen.views + views.pendingOf('a')).toBe(1);
      await flushed;
    });

    it('reads once when no batch is written meanwhile', async () => {
      const views = new PendingViews({ store: { addViews: async () => undefined }, logger });
      views.add('a');
      const read = vi.fn(async () => 'row');
      await expect(views.consistentRead(read)).resolves.toBe('row');
      expect(read).toHaveBeenCalledTimes(1);
    });
  });
});
