import { cn } from '../lib/cn';

/** The Clipnest mark: a clipboard on the accent colour. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('size-7 shrink-0', className)}>
      <rect width="64" height="64" rx="14" className="fill-primary" />
      <rect
        x="18"
        y="14"
        width="28"
        height="38"
        rx="5"
        fill="none"
        strokeWidth="4"
        className="stroke-primary-foreground"
      />
      <rect x="25" y="9" width="14" height="9" rx="3" className="fill-primary-foreground" />
      <path
        d="M25 32h14M25 40h9"
        strokeWidth="4"
        strokeLinecap="round"
        className="stroke-primary-foreground opacity-70"
      />
    </svg>
  );
}
