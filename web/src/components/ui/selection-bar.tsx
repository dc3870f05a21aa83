import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** Highlighted bar shown while list rows are selected: the count and the bulk actions (a labelled region). */
export function SelectionBar({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-lg border border-primary/40 bg-primary-soft px-3 py-2 text-primary-soft-foreground',
        className,
      )}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}
