import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * Highlighted bar shown while list rows are selected (a labelled region): how many, a way to clear
 * the selection, and the bulk actions at the end. It sticks to the top while the list scrolls.
 */
export function SelectionBar({
  label,
  summary,
  clearLabel,
  onClear,
  children,
}: {
  label: string;
  summary: ReactNode;
  clearLabel: string;
  onClear: () => void;
  /** The bulk actions. */
  children: ReactNode;
}) {
  return (
    <div
      className="sticky top-2 z-20 flex flex-wrap items-center gap-2 rounded-lg border border-primary/40 bg-primary-soft px-3 py-2 text-sm text-primary-soft-foreground shadow-sm"
      role="region"
      aria-label={label}
    >
      <span className="font-medium">{summary}</span>
      <Button variant="ghost" size="sm" onClick={onClear} className="text-inherit">
        <X className="size-4" aria-hidden="true" />
        {clearLabel}
      </Button>
      <div className="ms-auto flex items-center gap-2">{children}</div>
    </div>
  );
}
