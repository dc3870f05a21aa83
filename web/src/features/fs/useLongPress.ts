import { useLayoutEffect, useState, type PointerEvent } from 'react';

export const LONG_PRESS_MS = 500;
export const LONG_PRESS_TOLERANCE_PX = 10;

interface Timers {
  set: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clear: (id: ReturnType<typeof setTimeout>) => void;
}

const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id) };

/**
 * The long-press rule without React (unit-tested): a touch or pen held 500 ms fires at the point it went
 * down; a move of more than 10 px, a release or a cancel before that drops it; a mouse never starts one.
 */
export class LongPressTracker {
  private pending: { timer: ReturnType<typeof setTimeout>; x: number; y: number } | null = null;
  private fired = false;

  constructor(
    private onLongPress: (x: number, y: number, target: string) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Points the tracker at the latest callback (the hook's caller may pass a new one each render). */
  setHandler(onLongPress: (x: number, y: number, target: string) => void): void {
    this.onLongPress = onLongPress;
  }

  down(pointerType: string, x: number, y: number, target: string): void {
    this.fired = false;
    if (pointerType === 'mouse') return;
    this.cancel();
    this.pending = {
      x,
      y,
      timer: this.timers.set(() => {
        this.fired = true;
        this.pending = null;
        this.onLongPress(x, y, target);
      }, LONG_PRESS_MS),
    };
  }

  move(x: number, y: number): void {
    const p = this.pending;
    if (p && Math.hypot(x - p.x, y - p.y) > LONG_PRESS_TOLERANCE_PX) this.cancel();
  }

  cancel(): void {
    if (this.pending) this.timers.clear(this.pending.timer);
    this.pending = null;
  }

  /** True right after a long-press fired, so the click that follows it is ignored. */
  consumeFired(): boolean {
    const was = this.fired;
    this.fired = false;
    return was;
  }
}

/**
 * Touch long-press (500 ms, cancelled by a move of more than 10 px) that opens the context menu at the
 * finger; mouse right-click goes through onContextMenu as usual.
 */
export function useLongPress(onLongPress: (x: number, y: number, target: string) => void) {
  const [t] = useState(() => new LongPressTracker(onLongPress));
  useLayoutEffect(() => {
    t.setHandler(onLongPress);
  });
  return {
    bind: (target: string) => ({
      onPointerDown: (e: PointerEvent) => t.down(e.pointerType, e.clientX, e.clientY, target),
      onPointerMove: (e: PointerEvent) => t.move(e.clientX, e.clientY),
      onPointerUp: () => t.cancel(),
      onPointerCancel: () => t.cancel(),
    }),
    consumeFired: () => t.consumeFired(),
  };
}
