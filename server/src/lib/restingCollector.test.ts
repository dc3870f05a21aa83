import type { EventLoopUtilization } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { restingCollectionDue, startRestingCollector, type RestingProbes } from './restingCollector.js';

const MB = 1024 * 1024;
const options = { intervalMs: 1000, idleBelow: 0.02, growthBytes: 16 * MB, secondAfterMs: 100 };

/** Probes whose heap size and busy share the test sets. */
function fakeProbes(state: { bytes: number; busy: number }) {
  const collected: number[] = [];
  const probes: RestingProbes = {
    heapBytes: () => state.bytes,
    utilization: (previous?: EventLoopUtilization) =>
      ({ idle: 0, active: 0, utilization: previous ? state.busy : 0 }) as EventLoopUtilization,
    collect: () => {
      collected.push(Date.now());
      state.bytes = 40 * MB;
    },
  };
  return { probes, collected };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('restingCollectionDue', () => {
  it('collects only when idle and grown by enough', () => {
    expect(restingCollectionDue(0.01, 60 * MB, 40 * MB, options)).toBe(true);
    expect(restingCollectionDue(0.5, 60 * MB, 40 * MB, options)).toBe(false);
    expect(restingCollectionDue(0.01, 50 * MB, 40 * MB, options)).toBe(false);
  });
});

describe('startRestingCollector', () => {
  it('does nothing without a way to collect (node run without --expose-gc)', () => {
    expect(startRestingCollector(options, undefined)).toBeUndefined();
  });

  it('collects twice once the server rests after growing, then not again until it grows again', () => {
    vi.useFakeTimers();
    const state = { bytes: 40 * MB, busy: 0.5 };
    const { probes, collected } = fakeProbes(state);
    const collector = startRestingCollector(options, probes);
    state.bytes = 120 * MB;
    vi.advanceTimersByTime(3000);
    expect(collected).toHaveLength(0); // busy: a burst under way
    state.busy = 0.001;
    vi.advanceTimersByTime(1000);
    expect(collected).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(collected).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    expect(collected).toHaveLength(2); // nothing grew since
    state.bytes = 70 * MB;
    vi.advanceTimersByTime(1100);
    expect(collected).toHaveLength(4);
    state.bytes = 200 * MB;
    vi.advanceTimersByTime(850); // past the next look, before its second collection
    expect(collected).toHaveLength(5);
    collector?.stop();
    vi.advanceTimersByTime(10_000);
    expect(collected).toHaveLength(5); // stop() also cancels a second collection still to come
  });
});
