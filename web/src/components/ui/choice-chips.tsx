import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** Arrow keys move to the next or previous chip (wrapping); Home and End to the first and last. */
const STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/**
 * A single-choice row of chips: a radio group (WAI-ARIA pattern) with one tab stop, where arrow keys move
 * and choose at once. Plain buttons rather than a headless library's radio group, whose items register
 * themselves one render at a time: Home has several of these, and their renders held up the first load.
 */
export function ChoiceChips<T extends string>({
  value,
  onChange,
  options,
  label,
  className,
  id,
}: {
  value: T;
  onChange: (value: T) => void;
  options: { value: T; label: ReactNode }[];
  label: string;
  className?: string;
  id?: string;
}) {
  const group = useRef<HTMLDivElement>(null);
  const selected = options.findIndex((option) => option.value === value);
  // With no chip chosen the first one is the group's tab stop.
  const tabStop = selected === -1 ? 0 : selected;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = STEPS[event.key];
    const from = options.findIndex((option) => option.value === (event.target as HTMLElement).dataset.value);
    if (!step || from === -1) return;
    event.preventDefault();
    const to = step(from, options.length);
    const next = options[to];
    if (!next) return;
    group.current?.querySelectorAll<HTMLButtonElement>('[role="radio"]')[to]?.focus();
    if (next.value !== value) onChange(next.value);
  }

  return (
    <div
      ref={group}
      id={id}
      role="radiogroup"
      aria-label={label}
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      className={cn('flex flex-wrap gap-2', className)}
    >
      {options.map((option, index) => {
        const checked = index === selected;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={checked}
            data-state={checked ? 'checked' : 'unchecked'}
            data-value={option.value}
            tabIndex={index === tabStop ? 0 : -1}
            onClick={() => {
              if (!checked) onChange(option.value);
            }}
            className="inline-flex h-9 items-center rounded-lg border border-border bg-surface px-3 text-sm font-medium text-foreground transition-colors hover:bg-surface-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:border-primary data-[state=checked]:bg-primary-soft data-[state=checked]:text-primary-soft-foreground pointer-coarse:h-10"
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
