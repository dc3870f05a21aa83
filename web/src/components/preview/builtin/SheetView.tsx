import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Alert } from '../../ui/alert';
import { Skeleton } from '../../ui/skeleton';
import { cn } from '../../../lib/cn';
import { useTranslation } from '../../../lib/useTranslation';
import { columnName, sortedOrder, type SortState } from './sortRows';
import type { SheetData } from './sheetTypes';

const ROW_HEIGHT = 28;
const COLUMN_WIDTH = '10rem';
const NUMBER_WIDTH = '3.5rem';

/**
 * One sheet as a table: a virtualised body (only the rows in view are in the DOM, so 100 000 rows scroll
 * smoothly), headers that sort by their column. `headerRow`: the first row names the columns (CSV).
 */
function SheetTable({ sheet, headerRow }: { sheet: SheetData; headerRow: boolean }) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const [sort, setSort] = useState<SortState | null>(null);
  const header = useMemo(() => (headerRow ? (sheet.rows[0] ?? []) : null), [sheet, headerRow]);
  const body = useMemo(() => (headerRow ? sheet.rows.slice(1) : sheet.rows), [sheet, headerRow]);
  const order = useMemo(() => sortedOrder(body, sort), [body, sort]);
  const columns = useMemo(
    () => Math.max(header?.length ?? 0, ...body.slice(0, 5000).map((r) => r.length), 0),
    [header, body],
  );
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const template = `${NUMBER_WIDTH} repeat(${columns}, minmax(${COLUMN_WIDTH}, 1fr))`;
  const width = `calc(${NUMBER_WIDTH} + ${columns} * ${COLUMN_WIDTH})`;

  if (body.length === 0 && !header?.length) {
    return <p className="p-4 text-sm text-muted-foreground">{t('preview.emptySheet')}</p>;
  }
  const toggle = (column: number) =>
    setSort((now) =>
      now?.column !== column ? { column, descending: false } : now.descending ? null : { column, descending: true },
    );

  return (
    <div
      ref={scroller}
      role="table"
      aria-rowcount={order.length + 1}
      aria-colcount={columns + 1}
      className="max-h-[min(70dvh,40rem)] overflow-auto rounded-lg border border-border bg-surface text-xs"
      data-testid="sheet-table"
    >
      <div style={{ minWidth: width }}>
        <div
          role="row"
          className="sticky top-0 z-10 grid border-b border-border bg-surface-muted font-medium"
          style={{ gridTemplateColumns: template }}
        >
          <div role="columnheader" className="px-2 py-1.5 text-muted-foreground" />
          {Array.from({ length: columns }, (_, column) => {
            const label = header?.[column] || columnName(column);
            const active = sort?.column === column;
            return (
              <div
                key={column}
                role="columnheader"
                aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button
                  type="button"
                  className="flex w-full items-center gap-1 truncate px-2 py-1.5 text-start hover:bg-surface focus-visible:outline-2 focus-visible:outline-ring"
                  title={t('preview.sortBy', { column: label })}
                  onClick={() => toggle(column)}
                >
                  <span className="truncate">{label}</span>
                  {active &&
                    (sort.descending ? (
                      <ArrowDown className="size-3 shrink-0" aria-hidden="true" />
                    ) : (
                      <ArrowUp className="size-3 shrink-0" aria-hidden="true" />
                    ))}
                </button>
              </div>
            );
          })}
        </div>
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const index = order[item.index] ?? 0;
            const row = body[index] ?? [];
            return (
              <div
                key={item.key}
                role="row"
                data-testid="sheet-row"
                className="absolute inset-x-0 grid border-b border-border/60"
                style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <div role="rowheader" className="px-2 py-1.5 text-end text-muted-foreground tabular-nums">
                  {index + (headerRow ? 2 : 1)}
                </div>
                {Array.from({ length: columns }, (_, column) => (
                  <div key={column} role="cell" className="truncate px-2 py-1.5" title={row[column] ?? ''}>
                    {row[column] ?? ''}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Reads one sheet of the workbook (by position) when its tab is first opened. */
export type LoadSheet = (index: number, signal: AbortSignal) => Promise<SheetData>;

/** A sheet the first read left out (its tab was not open), read now in the worker. */
function LaterSheet({ index, loadSheet, headerRow }: { index: number; loadSheet: LoadSheet; headerRow: boolean }) {
  const { t } = useTranslation();
  const sheet = useQuery({
    queryKey: ['builtin-sheet', loadSheet, index],
    queryFn: ({ signal }) => loadSheet(index, signal),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  if (sheet.isPending)
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-64 w-full rounded-lg" />
        <p className="text-xs text-muted-foreground">{t('preview.loadingSheet')}</p>
      </div>
    );
  if (sheet.isError)
    return (
      <Alert tone="warning" title={t('preview.failed')}>
        {sheet.error.message}
      </Alert>
    );
  return <LoadedSheet sheet={sheet.data} headerRow={headerRow} />;
}

function LoadedSheet({ sheet, headerRow }: { sheet: SheetData; headerRow: boolean }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <>
      <SheetTable sheet={sheet} headerRow={headerRow} />
      {sheet.totalRows > sheet.rows.length && (
        <p className="text-xs text-muted-foreground" data-testid="sheet-truncated">
          {t('preview.rowsShown', {
            shown: number.format(sheet.rows.length),
            total: number.format(sheet.totalRows),
          })}
        </p>
      )}
    </>
  );
}

/**
 * A workbook's sheets with tabs, or one CSV table; says when only the first rows are shown. Sheets not
 * read yet (`loaded: false`) are read by `loadSheet` when their tab opens.
 */
export function SheetView({
  sheets,
  headerRow,
  loadSheet,
}: {
  sheets: SheetData[];
  headerRow: boolean;
  loadSheet?: LoadSheet;
}) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const index = Math.min(active, sheets.length - 1);
  const sheet = sheets[index];
  if (!sheet) return <p className="p-4 text-sm text-muted-foreground">{t('preview.emptySheet')}</p>;
  return (
    <div className="flex flex-col gap-2" data-testid="sheet-view">
      {sheets.length > 1 && (
        <div role="tablist" aria-label={t('preview.sheets')} className="flex gap-1 overflow-x-auto pb-1">
          {sheets.map((s, i) => (
            <button
              key={`${i}:${s.name}`}
              type="button"
              role="tab"
              aria-selected={i === active}
              data-testid="sheet-tab"
              onClick={() => setActive(i)}
              className={cn(
                'h-9 shrink-0 rounded-md border border-border px-3 text-sm',
                i === active
                  ? 'bg-surface font-medium text-foreground shadow-sm'
                  : 'bg-surface-muted text-muted-foreground',
              )}
            >
              {s.name}
            </button>
          ))}
        </div>
      )}
      {sheet.loaded || !loadSheet ? (
        <LoadedSheet key={index} sheet={sheet} headerRow={headerRow} />
      ) : (
        <LaterSheet key={index} index={index} loadSheet={loadSheet} headerRow={headerRow} />
      )}
    </div>
  );
}
