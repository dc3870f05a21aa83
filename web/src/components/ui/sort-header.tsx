import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { TH } from './table';

export type SortOrder = 'asc' | 'desc';

/** Sortable column header: a button that sorts by `field`, aria-sort on the cell. */
export function SortHeader<F extends string>({
  field,
  sortedBy,
  order,
  onSort,
  children,
  className,
}: {
  field: F;
  /** The column currently sorted by. */
  sortedBy: F;
  order: SortOrder;
  onSort: (field: F) => void;
  children: string;
  className?: string;
}) {
  const active = sortedBy === field;
  const Icon = !active ? ArrowUpDown : order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <TH aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} className={className}>
      <button
        type="button"
        onClick={() => onSort(field)}
        className="-mx-1.5 inline-flex h-8 items-center gap-1.5 rounded-md px-1.5 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        {children}
        <Icon className={active ? 'size-3.5' : 'size-3.5 opacity-50'} aria-hidden="true" />
      </button>
    </TH>
  );
}
