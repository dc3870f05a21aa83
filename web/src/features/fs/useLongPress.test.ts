import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS, LongPressTracker } from './useLongPress';

describe('LongPressTracker (500 ms, 10 px tolerance)', () => {
  let fired: Array<[number, number, string]>;
  let tracker: LongPressTracker;
  beforeEach(() => {
    vi.useFakeTimers();
    fired = [];
    tracker = new LongPressTracker((x, y, target) => fired.push([x, y, target]));
  });
  afterEach(() => vi.useRealTimers());

  it('fires after 500 ms held, at the point it went down, and swallows the click after it', () => {
    tracker.down('touch', 100, 200, '3');
    vi.advanceTimersByTime(LONG_PRESS_MS - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([[100, 200, '3']]);
    expect(tracker.consumeFired()).toBe(true);
    expect(tracker.consumeFired()).toBe(false);
  });

  it('tolerates a move of up to 10 px, drops the press beyond it', () => {
    tracker.down('touch', 100, 100, 'a');
    tracker.move(106, 108); // exactly 10 px away
    vi.advanceTimersByTime(LONG_PRESS_MS);
    expect(fired).toHaveLength(1);
    tracker.down('touch', 100, 100, 'b');
    tracker.move(108, 107); // 10.6 px
    vi.advanceTimersByTime(LONG_PRESS_MS * 2);
    expect(fired).toHaveLength(1);
    expect(tracker.consumeFired()).toBe(false);
  });

  it('a release or cancel before 500 ms, and any mouse press, never fire', () => {
    tracker.down('touch', 0, 0, 'a');
    vi.advanceTimersByTime(300);
    tracker.cancel();
    tracker.down('pen', 0, 0, 'b');
    vi.advanceTimersByTime(499);
    tracker.cancel();
    tracker.down('mouse', 0, 0, 'c');
    vi.advanceTimersByTime(LONG_PRESS_MS * 2);
    expect(fired).toEqual([]);
  });
});
