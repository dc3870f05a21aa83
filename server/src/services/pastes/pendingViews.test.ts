import { describe, expect, it, vi } from 'vitest';
import { PendingViews } from './pendingViews.js';

const logger = { error: vi.fn(), info: vi.fn(), debug: vi.fn() };

describe('PendingViews', () => {
  it('counts per paste and writes everything pending in one batch', async () => {
    const writes: Map<string, number>[] = [];
    const views = new PendingViews({ store: { addViews: async (c) => (writes.push(new Map(c)), new Map()) }, logger });
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
      const addViews = vi.fn(async () => new Map<string, number>());
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

  /** A store whose writes wait for `commit()`, over the row `a` read as `{ id, views }`. */
  function gatedStore() {
    const row = { id: 'a', views: 0 };
    let commit = () => undefined as void;
    const store = {
      addViews: (counts: ReadonlyMap<string, number>) =>
        new Promise<ReadonlyMap<string, number>>((resolve) => {
          commit = () => {
            row.views += counts.get('a') ?? 0;
            resolve(new Map([['a', row.views]]));
          };
        }),
    };
    return { row, store, commit: () => commit() };
  }

  describe('consistentRead', () => {
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
      const views = new PendingViews({ store: { addViews: async () => new Map<string, number>() }, logger });
      views.add('a');
      const read = vi.fn(async () => 'row');
      await expect(views.consistentRead(read)).resolves.toBe('row');
      expect(read).toHaveBeenCalledTimes(1);
    });
  });

  describe('countedRead (the view path)', () => {
    it('answers a read that missed a batch written meanwhile with its views, reading once', async () => {
      const { row, store, commit } = gatedStore();
      const views = new PendingViews({ store, logger });
      views.add('a');
      views.add('a');
      const read = vi.fn(async () => {
        const snapshot = { ...row };
        // The interval's flush fires while this read is on its way back; the write commits after.
        void views.flush();
        setTimeout(commit, 10);
        return snapshot;
      });
      const seen = await views.countedRead(read);
      expect(read).toHaveBeenCalledTimes(1);
      expect(row.views).toBe(2);
      expect(seen && seen.views + views.pendingOf('a')).toBe(2);
    });

    it('does not count a batch twice when the read saw its commit', async () => {
      const { row, store, commit } = gatedStore();
      const views = new PendingViews({ store, logger });
      views.add('a');
      views.add('a');
      const flushed = views.flush();
      const seen = await views.countedRead(async () => {
        // The write reaches the store, commits, and then this read takes its snapshot.
        await new Promise((r) => setTimeout(r, 0));
        commit();
        return { ...row };
      });
      expect(seen?.views).toBe(2);
      expect(seen && seen.views + views.pendingOf('a')).toBe(2);
      await flushed;
    });

    it('counts a batch taken after the read ended', async () => {
      const { row, store, commit } = gatedStore();
      const views = new PendingViews({ store, logger });
      views.add('a');
      let first: Promise<void> | undefined;
      const reading = views.countedRead(async () => {
        const snapshot = { ...row };
        first = views.flush();
        return snapshot;
      });
      // The read ended and waits for the first write; three more views are counted and taken meanwhile.
      await new Promise((r) => setTimeout(r, 5));
      for (let i = 0; i < 3; i++) views.add('a');
      const second = views.flush();
      commit();
      const seen = await reading;
      expect(seen && seen.views + views.pendingOf('a')).toBe(4);
      await first;
      await new Promise((r) => setTimeout(r, 0));
      commit();
      await second;
      expect(row.views).toBe(4);
    });

    it('answers the row as read when no batch is written meanwhile', async () => {
      const views = new PendingViews({ store: { addViews: async () => new Map<string, number>() }, logger });
      views.add('a');
      const row = { id: 'a', views: 5 };
      await expect(views.countedRead(async () => row)).resolves.toBe(row);
      await expect(views.countedRead(async () => undefined)).resolves.toBeUndefined();
      expect(views.pendingOf('a')).toBe(1);
    });
  });
});
