import { cn } from '../../lib/cn';

const tones = {
  primary: 'bg-primary',
  success: 'bg-success-soft-foreground',
  danger: 'bg-destructive',
  muted: 'bg-muted-foreground/60',
} as const;

/**
 * A determinate progress bar (value 0–100), or an indeterminate one when value is null.
 * Pass `label` for screen readers (e.g. the file name); the bar reports its value via aria.
 */
export function Progress({
  value,
  label,
  tone = 'primary',
  className,
  valueText,
}: {
  value: number | null;
  label: string;
  tone?: keyof typeof tones;
  className?: string;
  valueText?: string;
}) {
  const clamped = value === null ? null : Math.max(0, Math.min(100, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === null ? undefined : Math.round(clamped)}
      aria-valuetext={valueText}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-surface-muted', className)}
    >
      {clamped === null ? (
        <div className={cn('absolute inset-y-0 w-1/3 animate-pulse rounded-full', tones[tone])} />
      ) : (
        <div
          className={cn('h-full rounded-full transition-[width] duration-200 ease-out', tones[tone])}
          style={{ width: `${clamped}%` }}
        />
      )}
    </div>
  );
}
