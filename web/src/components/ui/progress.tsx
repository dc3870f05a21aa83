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

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1536 → "1.5 KB" (binary steps, one decimal under 100). Locale-aware digits. */
export function formatBytes(bytes: number, lang?: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const text = new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
  return `${text} ${BYTE_UNITS[unit]}`;
}

/** Bytes per second → "3.2 MB/s". */
export function formatSpeed(bytesPerSecond: number, lang?: string): string {
  return `${formatBytes(bytesPerSecond, lang)}/s`;
}

/** Seconds → "1:05:09", "4:07" or "12 s"-like short clock text. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}
