import { useRef, type PointerEvent } from 'react';

export const LONG_PRESS_MS = 500;
export const LONG_PRESS_TOLERANCE_PX = 10;

/**
 * Touch long-press (500 ms, cancelled by a move of more than 10 px) that opens the context menu at the
 * finger; mouse right-click goes through onContextMenu as usual.
 */
export function useLongPress(onLongPress: (x: number, y: number, target: string) => void) {
  const state = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const fired = useRef(false);
  const clear = () => {
    if (state.current) clearTimeout(state.current.timer);
    state.current = null;
  };
  return {
    bind: (target: string) => ({
      onPointerDown: (e: PointerEvent) => {
        fired.current = false;
        if (e.pointerType === 'mouse') return;
        clear();
        const { clientX: x, clientY: y } = e;
        state.current = {
          x,
          y,
          timer: setTimeout(() => {
            fired.current = true;
            state.current = null;
            onLongPress(x, y, target);
          }, LONG_PRESS_MS),
        };
      },
      onPointerMove: (e: PointerEvent) => {
        const s = state.current;
        if (s && Math.hypot(e.clientX - s.x, e.clientY - s.y) > LONG_PRESS_TOLERANCE_PX) clear();
      },
      onPointerUp: clear,
      onPointerCancel: clear,
    }),
    /** True right after a long-press fired, so the click that follows it is ignored. */
    consumeFired: () => {
      const was = fired.current;
      fired.current = false;
      return was;
    },
  };
}
