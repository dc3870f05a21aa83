import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Download, FilterX, ScrollText, SearchX } from 'lucide-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { formatDateTime, formatNumber } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useDebounced } from '../../lib/useDebounced';
import { useTranslation } from '../../lib/useTranslation';
import { EMPTY_FILTERS, exportAuditCsv, useAuditLog, type AuditEntry, type AuditFilters } from './api';

/** Action families offered as suggestions in the action filter (any action or family may be typed). */
const ACTION_SUGGESTIONS = [
  'auth',
  'auth.login',
  'auth.login.failed',
  'auth.apikey.failed',
  'auth.webdav.failed',
  'api_key',
  'paste',
  'file',
  'fs',
  'webdav',
  'storage_config',
  'mount',
  'settings.update',
  'backup',
  'task',
];

const OUTCOME_TONE = { success: 'success', denied: 'warning', failure: 'warning', error: 'danger' } as const;

/** Desktop columns: time, action, actor, target, client. */
const GRID =
  'md:grid md:grid-cols-[10.5rem_minmax(11rem,14rem)_minmax(7rem,10rem)_minmax(0,1fr)_7rem] md:items-center md:gap-4';

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const actor = entry.actor_name ? `${entry.actor} (${entry.actor_name})` : entry.actor;
  return (
    <div
      className={`flex flex-col gap-1 border-b border-border px-4 py-3 text-sm ${GRID}`}
      data-testid="audit-row"
      data-action={entry.action}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 md:contents">
        <time
          dateTime={entry.at}
          className="order-2 shrink-0 whitespace-nowrap text-xs tabular-nums text-muted-foreground md:order-none md:text-[13px]"
        >
          {formatDateTime(entry.at, i18n.language)}
        </time>
        <div className="order-1 flex items-center gap-1.5 md:order-none md:min-w-0">
          <span className="break-all font-mono text-[13px] font-medium md:truncate" title={entry.action}>
            {entry.action}
          </span>
          <Badge tone={OUTCOME_TONE[entry.outcome]} title={String(entry.status)}>
            {t(`adminPanel.auditLog.outcome.${entry.outcome}`)}
          </Badge>
        </div>
      </div>
      <span className="truncate" title={actor}>
        <span className="text-muted-foreground md:hidden">{t('adminPanel.auditLog.columns.actor')}: </span>
        {actor}
      </span>
      <span
        className="line-clamp-2 break-all font-mono text-xs text-muted-foreground"
        title={[entry.target, entry.detail].filter(Boolean).join('\n')}
      >
        {entry.target ?? '—'}
        {entry.detail && <span className="ms-2 text-warning-soft-foreground">{entry.detail}</span>}
      </span>
      <span className="truncate text-xs text-muted-foreground md:text-sm" title={entry.request_id ?? undefined}>
        <span className="md:hidden">{t('adminPanel.auditLog.columns.client')}: </span>
        {entry.client ?? '—'}
      </span>
    </div>
  );
}

function AuditSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border border-border bg-surface" aria-hidden="true">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className={`flex flex-col gap-2 border-b border-border px-4 py-3 last:border-0 ${GRID}`}>
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 w-full max-w-80" />
          <Skeleton className="h-4 w-20" />
        </div>
      ))}
    </div>
  );
}

/** The list of entries over the window virtualiser; asks for more when the end comes near. */
function AuditList({
  entries,
  hasMore,
  loadingMore,
  onNeedMore,
}: {
  entries: AuditEntry[];
  hasMore: boolean;
  loadingMore: boolean;
  onNeedMore: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    if (ref.current) setMargin(ref.current.getBoundingClientRect().top + window.scrollY);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: entries.length,
    estimateSize: () => 64,
    overscan: 8,
    scrollMargin: margin,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  useEffect(() => {
    if (hasMore && !loadingMore && last && last.index >= entries.length - 30) onNeedMore();
  }, [hasMore, loadingMore, last, entries.length, onNeedMore]);

  return (
    <div className="overflow-hidden rounded-xl border border-border bg-surface">
      <div
        className={`sticky top-0 z-10 hidden border-b border-border bg-surface-muted px-4 py-2 text-xs font-medium text-muted-foreground md:grid ${GRID}`}
        aria-hidden="true"
      >
        <span>{t('adminPanel.auditLog.columns.time')}</span>
        <span>{t('adminPanel.auditLog.columns.action')}</span>
        <span>{t('adminPanel.auditLog.columns.actor')}</span>
        <span>{t('adminPanel.auditLog.columns.target')}</span>
        <span>{t('adminPanel.auditLog.columns.client')}</span>
      </div>
      <div ref={ref} role="list" aria-label={t('adminPanel.auditLog.listLabel')}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => (
            <div
              key={item.key}
              role="listitem"
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="absolute inset-x-0 top-0"
              style={{ transform: `translateY(${item.start - margin}px)` }}
            >
              <AuditRow entry={entries[item.index]!} />
            </div>
          ))}
        </div>
      </div>
      {(hasMore || loadingMore) && (
        <div className="flex justify-center p-3">
          <Button variant="ghost" size="sm" loading={loadingMore} onClick={onNeedMore}>
            {t('adminPanel.auditLog.loadMore')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** The audit log (admin only): filters, an infinite list, and the filtered log as CSV. */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_FILTERS);
  const typed = useDebounced(filters, 300);
  // Dates apply at once; typed text after a pause.
  const applied = useMemo(() => ({ ...typed, from: filters.from, to: filters.to }), [typed, filters.from, filters.to]);
  const log = useAuditLog(applied);
  const [exporting, setExporting] = useState(false);
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.items) ?? [], [log.data]);
  const total = log.data?.pages[0]?.total ?? 0;
  const filtered = Object.values(applied).some((value) => value !== '');
  const set = (name: keyof AuditFilters) => (event: { target: { value: string } }) =>
    setFilters((current) => ({ ...current, [name]: event.target.value }));

  async function onExport() {
    setExporting(true);
    try {
      await exportAuditCsv(applied);
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('admin.pages.auditLog')} description={t('admin.pageBody.auditLog')}>
        <RefreshButton label={t('common.refresh')} fetching={log.isFetching} onRefresh={() => void log.refetch()} />
        <Button
          variant="secondary"
          onClick={() => void onExport()}
          loading={exporting}
          disabled={log.isPending || total === 0}
          className="flex-1 sm:flex-none"
        >
          <Download className="size-4" aria-hidden="true" />
          {t('adminPanel.auditLog.export')}
        </Button>
      </PageHeader>

      <form
        className="grid grid-cols-2 gap-3 md:grid-cols-[1fr_1fr_10rem_10rem_auto] md:items-end"
        aria-label={t('adminPanel.auditLog.filters')}
        onSubmit={(event) => event.preventDefault()}
      >
        <label className="col-span-2 flex flex-col gap-1.5 text-sm font-medium md:col-span-1">
          {t('adminPanel.auditLog.filterAction')}
          <Input
            list="audit-actions"
            value={filters.action}
            onChange={set('action')}
            placeholder={t('adminPanel.auditLog.filterActionPlaceholder')}
            autoCapitalize="off"
            spellCheck={false}
          />
          <datalist id="audit-actions">
            {ACTION_SUGGESTIONS.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </label>
        <label className="col-span-2 flex flex-col gap-1.5 text-sm font-medium md:col-span-1">
          {t('adminPanel.auditLog.filterActor')}
          <Input
            value={filters.actor}
            onChange={set('actor')}
            placeholder={t('adminPanel.auditLog.filterActorPlaceholder')}
            autoCapitalize="off"
            spellCheck={false}
          />
        </label>
        <label className="flex min-w-0 flex-col gap-1.5 text-sm font-medium">
          {t('adminPanel.auditLog.from')}
          <Input type="date" value={filters.from} max={filters.to || undefined} onChange={set('from')} />
        </label>
        <label className="flex min-w-0 flex-col gap-1.5 text-sm font-medium">
          {t('adminPanel.auditLog.to')}
          <Input type="date" value={filters.to} min={filters.from || undefined} onChange={set('to')} />
        </label>
        <Button
          type="button"
          variant="ghost"
          className="col-span-2 md:col-span-1"
          disabled={!Object.values(filters).some((value) => value !== '')}
          onClick={() => setFilters(EMPTY_FILTERS)}
        >
          <FilterX className="size-4" aria-hidden="true" />
          {t('adminPanel.auditLog.clearFilters')}
        </Button>
      </form>

      <div className="flex flex-col gap-3">
        {!log.isPending && !log.isError && total > 0 && (
          <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="audit-count">
            {t('adminPanel.auditLog.count', { count: total, formatted: formatNumber(total, i18n.language) })}
          </p>
        )}
        {log.isPending ? (
          <AuditSkeleton />
        ) : log.isError ? (
          <LoadError
            title={t('adminPanel.auditLog.loadFailed')}
            message={errorMessage(log.error)}
            retryLabel={t('common.retry')}
            onRetry={() => void log.refetch()}
          />
        ) : total === 0 && filtered ? (
          <EmptyState
            icon={SearchX}
            title={t('adminPanel.auditLog.noMatch')}
            action={
              <Button variant="secondary" onClick={() => setFilters(EMPTY_FILTERS)}>
                {t('adminPanel.auditLog.clearFilters')}
              </Button>
            }
          />
        ) : total === 0 ? (
          <EmptyState
            icon={ScrollText}
            title={t('adminPanel.auditLog.emptyTitle')}
            description={t('adminPanel.auditLog.emptyBody')}
          />
        ) : (
          <AuditList
            entries={entries}
            hasMore={log.hasNextPage}
            loadingMore={log.isFetchingNextPage}
            onNeedMore={() => void log.fetchNextPage()}
          />
        )}
      </div>
    </div>
  );
}
