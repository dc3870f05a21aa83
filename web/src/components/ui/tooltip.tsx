import {
  Children,
  cloneElement,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { createPortal } from 'react-dom';

// A small tooltip of its own: Radix's tooltip brought a popper and floating-ui into every page for a
// label. Hover (mouse, after a short delay) or keyboard focus shows it; leaving, blur, a press, Escape or a scroll
// hides it. While shown, the trigger is described by it (aria-describedby), as Radix did.
type Side = 'top' | 'bottom' | 'left' | 'right';
const HOVER_DELAY_MS = 400;
const GAP = 6;
const MARGIN = 8;

type Handler = (event: SyntheticEvent<HTMLElement>) => void;
type TriggerProps = Record<string, unknown> & { 'aria-describedby'?: string };

function place(anchor: DOMRect, bubble: DOMRect, wanted: Side): CSSProperties {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const clamp = (value: number, size: number, max: number) => Math.max(MARGIN, Math.min(value, max - size - MARGIN));
  let side = wanted;
  if (side === 'bottom' && anchor.bottom + GAP + bubble.height > vh) side = 'top';
  else if (side === 'top' && anchor.top - GAP - bubble.height < 0) side = 'bottom';
  else if (side === 'right' && anchor.right + GAP + bubble.width > vw) side = 'left';
  else if (side === 'left' && anchor.left - GAP - bubble.width < 0) side = 'right';
  const centerX = clamp(anchor.left + anchor.width / 2 - bubble.width / 2, bubble.width, vw);
  const centerY = clamp(anchor.top + anchor.height / 2 - bubble.height / 2, bubble.height, vh);
  switch (side) {
    case 'top':
      return { top: anchor.top - GAP - bubble.height, left: centerX };
    case 'left':
      return { top: centerY, left: anchor.left - GAP - bubble.width };
    case 'right':
      return { top: centerY, left: anchor.right + GAP };
    default:
      return { top: anchor.bottom + GAP, left: centerX };
  }
}

function Bubble({ id, anchor, side, children }: { id: string; anchor: HTMLElement; side: Side; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [style, setStyle] = useState<CSSProperties>({ top: 0, left: 0, visibility: 'hidden' });
  useLayoutEffect(() => {
    if (ref.current) setStyle(place(anchor.getBoundingClientRect(), ref.current.getBoundingClientRect(), side));
  }, [anchor, side, children]);
  return (
    <div
      ref={ref}
      id={id}
      role="tooltip"
      style={style}
      className="pointer-events-none fixed z-50 max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-xs font-medium text-background shadow-lg"
    >
      {children}
    </div>
  );
}

/** Kept for callers that wrap the app; the delay is fixed here. */
export function TooltipProvider({ children }: { children: ReactNode; delayDuration?: number }) {
  return children;
}

export function Tooltip({
  content,
  children,
  side = 'bottom',
}: {
  content: ReactNode;
  children: ReactNode;
  side?: Side;
}) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const child = Children.only(children) as ReactElement<TriggerProps>;
  const own = child.props;

  const close = () => {
    window.clearTimeout(timer.current);
    setAnchor(null);
  };
  const openLater = (element: HTMLElement, delay: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setAnchor(element), delay);
  };

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (!anchor) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', close, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', close, true);
    };
  }, [anchor]);

  const forward = (name: string, event: SyntheticEvent<HTMLElement>) => (own[name] as Handler | undefined)?.(event);
  // The handlers touch the timer ref only when events fire, never while rendering.
  // eslint-disable-next-line react-hooks/refs
  const trigger = cloneElement(child, {
    onPointerEnter: (event: SyntheticEvent<HTMLElement>) => {
      forward('onPointerEnter', event);
      if ((event.nativeEvent as PointerEvent).pointerType === 'mouse') openLater(event.currentTarget, HOVER_DELAY_MS);
    },
    onPointerLeave: (event: SyntheticEvent<HTMLElement>) => {
      forward('onPointerLeave', event);
      close();
    },
    onPointerDown: (event: SyntheticEvent<HTMLElement>) => {
      forward('onPointerDown', event);
      close();
    },
    onFocus: (event: SyntheticEvent<HTMLElement>) => {
      forward('onFocus', event);
      if (event.currentTarget.matches(':focus-visible')) openLater(event.currentTarget, 0);
    },
    onBlur: (event: SyntheticEvent<HTMLElement>) => {
      forward('onBlur', event);
      close();
    },
    'aria-describedby': anchor ? [own['aria-describedby'], id].filter(Boolean).join(' ') : own['aria-describedby'],
  });

  return (
    <>
      {trigger}
      {anchor &&
        createPortal(
          <Bubble id={id} anchor={anchor} side={side}>
            {content}
          </Bubble>,
          document.body,
        )}
    </>
  );
}
