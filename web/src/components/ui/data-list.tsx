import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { cn } from '../../lib/cn';
import { Checkbox } from './checkbox';
import { SortHeader, type SortOrder } from './sort-header';
import { Table, TBody, TD, TH, THead, TR } from './table';
import type { RowSelection } from './use-row-selection';

export interface DataListColumn<T, F extends string> {
  id: string;
  header: string;
  /** Sorts by this field when the header is clicked (needs `sort` on the list). */
  sortField?: F;
  cell: (item: T) => ReactNode;
  /** Classes of the body cells (width, wrapping). */
  className?: string;
}

/** One labelled value at the bottom of a phone card. */
export interface DataListFact {
  label: string;
  value: ReactNode;
  /** Takes the whole row of the card's fact grid. */
  wide?: boolean;
  className?: string;
}

export interface DataListProps<T, F extends string> {
  items: readonly T[];
  getId: (item: T) => string;
  columns: DataListColumn<T, F>[];
  /** The row's actions (usually <RowActions>), in the last table column and the card's corner. */
  actions: (item: T) => ReactNode;
  card: {
    /** The head of the card, beside the checkbox and the actions. */
    title: (item: T) => ReactNode;
    /** Between the head and the facts (badges, a remark); nothing when it answers null. */
    body?: (item: T) => ReactNode;
    facts: (item: T) => DataListFact[];
    factColumns?: 2 | 3;
  };
  sort?: { field: F; order: SortOrder; onSort: (field: F) => void };
  selection?: {
    rows: RowSelection;
    /** aria-label of the header checkbox ("Select all on this page"). */
    allLabel: string;
    /** aria-label of a row's checkbox ("Select report.pdf"). */
    itemLabel: (item: T) => string;
  };
  /** aria-label of the table. */
  label?: string;
  rowTestId: string;
  cardTestId: string;
}

/**
 * A list shown as a table on wide screens (xl+) and as cards below (DESIGN.md tables: sortable
 * columns, row actions in a menu, row selection for bulk actions; cards on phones). Below xl the
 * admin sidebar leaves too little room for seven or eight columns, so tablets get cards too.
 */
export function DataList<T, F extends string>(props: DataListProps<T, F>) {
  return (
    <>
      <div className="hidden xl:block">
        <DataTable {...props} />
      </div>
      {/* minmax(0, 1fr) columns: a long unbreakable name truncates instead of widening the card. */}
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:hidden">
        {props.items.map((item) => (
          <DataCard key={props.getId(item)} item={item} {...props} />
        ))}
      </ul>
    </>
  );
}

function DataTable<T, F extends string>({
  items,
  getId,
  columns,
  actions,
  sort,
  selection,
  label,
  rowTestId,
}: DataListProps<T, F>) {
  const { t } = useTranslation();
  const ids = items.map(getId);
  const chosen = selection ? ids.filter((id) => selection.rows.has(id)).length : 0;
  return (
    <Table aria-label={label}>
      <THead>
        <tr className="border-b border-border">
          {selection && (
            <TH className="w-10 pe-0">
              <Checkbox
                checked={ids.length > 0 && chosen === ids.length ? true : chosen > 0 ? 'indeterminate' : false}
                onCheckedChange={(v) => selection.rows.setMany(ids, v === true)}
                aria-label={selection.allLabel}
              />
            </TH>
          )}
          {columns.map((column) =>
            sort && column.sortField ? (
              <SortHeader
                key={column.id}
                field={column.sortField}
                sortedBy={sort.field}
                order={sort.order}
                onSort={sort.onSort}
              >
                {column.header}
              </SortHeader>
            ) : (
              <TH key={column.id}>{column.header}</TH>
            ),
          )}
          <TH className="text-end">
            <span className="sr-only">{t('common.actions')}</span>
          </TH>
        </tr>
      </THead>
      <TBody>
        {items.map((item) => {
          const id = getId(item);
          const selected = selection?.rows.has(id) ?? false;
          return (
            <TR key={id} data-testid={rowTestId} data-state={selected ? 'selected' : undefined}>
              {selection && (
                <TD className="w-10 pe-0">
                  <Checkbox
                    checked={selected}
                    onCheckedChange={(v) => selection.rows.set(id, v === true)}
                    aria-label={selection.itemLabel(item)}
                  />
                </TD>
              )}
              {columns.map((column) => (
                <TD key={column.id} className={column.className}>
                  {column.cell(item)}
                </TD>
              ))}
              <TD className="w-px whitespace-nowrap ps-0">{actions(item)}</TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

function DataCard<T, F extends string>({
  item,
  getId,
  actions,
  card,
  selection,
  cardTestId,
}: DataListProps<T, F> & { item: T }) {
  const id = getId(item);
  const body = card.body?.(item);
  return (
    <li className="rounded-xl border border-border bg-surface p-4 shadow-sm" data-testid={cardTestId}>
      <div className="flex items-start gap-3">
        {selection && (
          // A 40 px touch target around the small checkbox.
          <label className="-m-2 grid size-10 shrink-0 place-items-center">
            <Checkbox
              checked={selection.rows.has(id)}
              onCheckedChange={(v) => selection.rows.set(id, v === true)}
              aria-label={selection.itemLabel(item)}
            />
          </label>
        )}
        <div className="min-w-0 flex-1">{card.title(item)}</div>
        {actions(item)}
      </div>
      {body != null && body !== false && <div className="mt-3 flex flex-col gap-3">{body}</div>}
      <dl
        className={cn(
          'mt-3 grid gap-x-4 gap-y-3 border-t border-border pt-3 text-sm',
          card.factColumns === 3 ? 'grid-cols-3' : 'grid-cols-2',
        )}
      >
        {card.facts(item).map((fact) => (
          <div key={fact.label} className={fact.wide ? 'col-span-full' : undefined}>
            <dt className="text-xs text-muted-foreground">{fact.label}</dt>
            <dd className={cn('mt-0.5', fact.className)}>{fact.value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
