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
});
