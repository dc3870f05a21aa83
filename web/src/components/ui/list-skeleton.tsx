import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * Loading placeholder for a DataList: a table on wide screens (xl+), cards below.
 * `row` is the content of one table row placeholder, `card` the content of one card placeholder.
 */
export function ListSkeleton({
  row,
  card,
  rowClassName,
  rows = 5,
  cards = 3,
}: {
  row: ReactNode;
  card: ReactNode;
  /** Row height, e.g. `h-[61px]`, so the table does not jump when data arrives. */
  rowClassName: string;
  rows?: number;
  cards?: number;
}) {
  return (
    <>
      <div className="hidden xl:block">
        <div className="overflow-hidden rounded-xl border border-border bg-surface">
          <div className="h-10 border-b border-border bg-surface-muted" />
          {Array.from({ length: rows }, (_, i) => (
            <div
              key={i}
              className={cn('flex items-center gap-6 border-b border-border px-4 last:border-0', rowClassName)}
            >
              {row}
            </div>
          ))}
        </div>
      </div>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:hidden">
        {Array.from({ length: cards }, (_, i) => (
          <li key={i} className="space-y-3 rounded-xl border border-border bg-surface p-4">
            {card}
          </li>
        ))}
      </ul>
    </>
  );
}
