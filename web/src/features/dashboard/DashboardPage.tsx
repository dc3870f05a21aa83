import type { DashboardStats, DashboardTable } from '@clipnest/contract';
import {
  Inbox,
  Database,
  Eraser,
  FileText,
  FolderTree,
  HardDrive,
  History,
  KeyRound,
  Upload,
  type LucideIcon,
} from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { RefreshButton } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { formatBytes, formatDateTime, formatNumber, formatRelative } from '../../lib/format';
import { useCacheStats, useClearCache, useDashboardStats, useRefreshDashboard } from './api';
import { BarChart, type ChartPoint } from './BarChart';

const COUNT_CARDS: { table: DashboardTable; icon: LucideIcon; to: string }[] = [
  { table: 'pastes', icon: FileText, to: '/admin/text-management' },
  { table: 'files', icon: Upload, to: '/admin/file-management' },
  { table: 'api_keys', icon: KeyRound, to: '/admin/key-management' },
  { table: 'mounts', icon: FolderTree, to: '/admin/mount-management' },
  { table: 'storage_configs', icon: Database, to: '/admin/storage-config' },
];

function Card({
  title,
  icon: Icon,
  children,
  className,
  action,
}: {
  title: string;
  icon: LucideIcon;
  children: React.ReactNode;
  className?: string;
  action?: React.ReactNode;
}) {
  return (
    <section
      className={cn(
        'flex min-w-0 flex-col gap-4 rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-5',
        className,
      )}
    >
      <div className="flex items-center gap-2">
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
        <h2 className="text-sm font-semibold">{title}</h2>
        {action && <div className="ms-auto">{action}</div>}
      </div>
      {children}
    </section>
  );
}

function CountCards({ stats }: { stats: DashboardStats | undefined }) {
  const { t, i18n } = useTranslation();
  const n = new Intl.NumberFormat(i18n.language);
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {COUNT_CARDS.map(({ table, icon: Icon, to }) => (
        <Link
          key={table}
          to={to}
          data-testid={`count-${table}`}
          className="group flex min-h-24 flex-col justify-between gap-2 rounded-xl border border-border bg-surface p-4 shadow-sm transition-colors hover:bg-surface-hover focus-visible:outline-2 focus-visible:outline-ring"
        >
          <span className="flex items-center gap-2 text-sm text-muted-foreground">
            <span className="grid size-7 place-items-center rounded-lg bg-primary-soft text-primary-soft-foreground">
              <Icon className="size-4" aria-hidden="true" />
            </span>
            <span className="min-w-0 leading-tight">{t(`adminPanel.dashboard.counts.${table}`)}</span>
          </span>
          {stats ? (
            <span className="text-2xl font-semibold tabular-nums tracking-tight">{n.format(stats.counts[table])}</span>
          ) : (
            <Skeleton className="h-8 w-16" />
          )}
        </Link>
      ))}
    </div>
  );
}

function useChartPoints(stats: DashboardStats | undefined) {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const short = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' });
    const long = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
    const days = stats?.daily ?? [];
    const point = (day: string, values: number[]): ChartPoint => {
      const date = new Date(`${day}T00:00:00Z`);
      return { label: short.format(date), fullLabel: long.format(date), values };
    };
    return {
      views: days.map((d) => point(d.day, [d.paste_views, d.file_views, d.file_downloads])),
      uploads: days.map((d) => point(d.day, [d.pastes_created, d.files_created])),
    };
  }, [stats, i18n.language]);
}

function ChartCard({
  title,
  icon,
  points,
  names,
  empty,
  loading,
}: {
  title: string;
  icon: LucideIcon;
  points: ChartPoint[];
  names: string[];
  empty: string;
  loading: boolean;
}) {
  const { i18n } = useTranslation();
  const n = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const styles = [
    { fill: 'fill-primary', swatch: 'bg-primary' },
    { fill: 'fill-primary/55', swatch: 'bg-primary/55' },
    { fill: 'fill-muted-foreground/45', swatch: 'bg-muted-foreground/45' },
  ];
  const total = points.reduce((sum, p) => sum + p.values.reduce((a, b) => a + b, 0), 0);
  return (
    <Card title={title} icon={icon}>
      {loading ? (
        <Skeleton className="h-52 w-full" />
      ) : (
        <div className="relative">
          <BarChart
            title={title}
            points={points}
            series={names.map((name, i) => ({ name, ...styles[i]! }))}
            formatValue={(v) => n.format(v)}
          />
          {total === 0 && (
            <p
              className="absolute inset-x-0 top-14 text-center text-sm text-muted-foreground"
              data-testid="chart-empty"
            >
              {empty}
            </p>
          )}
        </div>
      )}
    </Card>
  );
}

function StorageUsage({ stats }: { stats: DashboardStats | undefined }) {
  const { t, i18n } = useTranslation();
  if (!stats) {
    return (
      <div className="space-y-4">
        {Array.from({ length: 2 }, (_, i) => (
          <div key={i} className="space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-2 w-full" />
          </div>
        ))}
      </div>
    );
  }
  if (stats.storage.length === 0) {
    return (
      <EmptyState
        icon={HardDrive}
        className="py-8"
        title={t('adminPanel.dashboard.noStorage')}
        action={
          <Button asChild variant="secondary" size="sm">
            <Link to="/admin/storage-config">{t('adminPanel.dashboard.addStorage')}</Link>
          </Button>
        }
      />
    );
  }
  return (
    <ul className="flex flex-col gap-4">
      {stats.storage.map((s) => {
        const percent = s.usage_percent ?? 0;
        const tone = percent >= 90 ? 'bg-destructive' : percent >= 75 ? 'bg-warning-soft-foreground' : 'bg-primary';
        return (
          <li key={s.id} data-testid="storage-row" className="flex flex-col gap-1.5">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="min-w-0 truncate font-medium">{s.name}</span>
              <Badge>{s.storage_type}</Badge>
              {s.is_default && <Badge tone="primary">{t('adminPanel.dashboard.default')}</Badge>}
              <span className="ms-auto tabular-nums text-muted-foreground">
                {s.total_capacity !== null
                  ? t('adminPanel.dashboard.usedOf', {
                      used: formatBytes(s.used_bytes, i18n.language),
                      total: formatBytes(s.total_capacity, i18n.language),
                    })
                  : t('adminPanel.dashboard.usedNoLimit', { used: formatBytes(s.used_bytes, i18n.language) })}
              </span>
            </div>
            {s.total_capacity !== null ? (
              <div
                role="progressbar"
                aria-label={s.name}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.min(100, percent)}
                className="h-2 overflow-hidden rounded-full bg-surface-muted"
              >
                <div className={cn('h-full rounded-full', tone)} style={{ width: `${Math.min(100, percent)}%` }} />
              </div>
            ) : (
              <div className="h-2 rounded-full bg-surface-muted" aria-hidden="true" />
            )}
            <p className="text-xs text-muted-foreground">
              {t('adminPanel.dashboard.fileCount', { count: s.file_count })}
              {s.usage_percent !== null && ` · ${s.usage_percent}%`}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

function RecentActivity({ stats }: { stats: DashboardStats | undefined }) {
  const { t, i18n } = useTranslation();
  if (!stats) {
    return (
      <div className="space-y-3">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="flex items-center gap-3">
            <Skeleton className="size-8 rounded-lg" />
            <div className="flex-1 space-y-1.5">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-24" />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (stats.recent.length === 0) {
    return (
      <EmptyState
        icon={History}
        className="py-8"
        title={t('adminPanel.dashboard.noActivity')}
        action={
          <Button asChild variant="secondary" size="sm">
            <Link to="/">{t('adminPanel.dashboard.createPaste')}</Link>
          </Button>
        }
      />
    );
  }
  return (
    <ul className="-mx-2 flex flex-col">
      {stats.recent.map((item) => {
        const Icon = item.type === 'paste' ? FileText : Upload;
        const to = `/${item.type}/${encodeURIComponent(item.slug)}`;
        return (
          <li key={`${item.type}-${item.id}`} data-testid="activity-row">
            <Link
              to={to}
              className="flex min-h-12 items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-surface-hover focus-visible:outline-2 focus-visible:outline-ring"
            >
              <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-surface-muted text-muted-foreground">
                <Icon className="size-4" aria-hidden="true" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{item.filename ?? item.slug}</span>
                <span className="block truncate text-xs text-muted-foreground">
                  {t(`adminPanel.dashboard.activity.${item.type}`)}
                  {item.size !== null && ` · ${formatBytes(item.size, i18n.language)}`}
                  {item.created_by_name && ` · ${item.created_by_name}`}
                </span>
              </span>
              <time
                dateTime={item.created_at}
                title={formatDateTime(item.created_at, i18n.language)}
                className="shrink-0 text-xs text-muted-foreground"
              >
                {formatRelative(item.created_at, i18n.language)}
              </time>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function CacheCard() {
  const { t, i18n } = useTranslation();
  const stats = useCacheStats();
  const clear = useClearCache();
  async function onClear() {
    try {
      const result = await clear.mutateAsync();
      toast.success(t('adminPanel.dashboard.cacheCleared', { count: result.cleared }));
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }
  return (
    <Card
      title={t('adminPanel.dashboard.cacheTitle')}
      icon={Eraser}
      action={
        <Button variant="secondary" size="sm" onClick={() => void onClear()} loading={clear.isPending}>
          {t('adminPanel.dashboard.clearCache')}
        </Button>
      }
    >
      {stats.isPending ? (
        <Skeleton className="h-4 w-48" />
      ) : stats.isError ? (
        <p className="text-sm text-muted-foreground">{errorMessage(stats.error)}</p>
      ) : (
        <div className="flex flex-col gap-2 text-sm">
          <p className="text-muted-foreground">
            {t('adminPanel.dashboard.cacheEntries', {
              count: stats.data.total_entries,
              formatted: formatNumber(stats.data.total_entries, i18n.language),
            })}
          </p>
          <ul className="flex flex-wrap gap-1.5">
            {stats.data.caches.map((c) => (
              <li key={c.name}>
                <Badge>
                  {c.name}: {c.entries}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

/** Folder shares (bundles included), upload requests and the newest files received through them. */
function SharesCard({ stats }: { stats: DashboardStats | undefined }) {
  const { t, i18n } = useTranslation();
  if (!stats) return <Skeleton className="h-24 w-full rounded-lg" />;
  const { shares } = stats;
  return (
    <div className="flex flex-col gap-3" data-testid="dashboard-shares">
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-surface-muted p-3">
          <dt className="text-xs text-muted-foreground">{t('adminPanel.dashboard.folderShares')}</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatNumber(shares.folder_shares, i18n.language)}</dd>
        </div>
        <div className="rounded-lg bg-surface-muted p-3">
          <dt className="text-xs text-muted-foreground">{t('adminPanel.dashboard.uploadRequests')}</dt>
          <dd className="text-xl font-semibold tabular-nums">{formatNumber(shares.upload_requests, i18n.language)}</dd>
        </div>
      </dl>
      {shares.received.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('adminPanel.dashboard.noneReceived')}</p>
      ) : (
        <ul className="flex flex-col gap-1" aria-label={t('adminPanel.dashboard.received')}>
          {shares.received.map((file) => (
            <li key={file.id} className="flex items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 truncate" title={file.path || file.name}>
                {file.name}
              </span>
              <span className="shrink-0 text-xs text-muted-foreground">
                {formatBytes(file.size, i18n.language)} · /r/{file.request_slug} ·{' '}
                <time dateTime={file.created_at} title={formatDateTime(file.created_at, i18n.language)}>
                  {formatRelative(file.created_at, i18n.language)}
                </time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Dashboard (spec §2): counts, storage use, 7-day views and uploads, recent activity, cache. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const query = useDashboardStats();
  const refresh = useRefreshDashboard();
  const stats = query.data;
  const points = useChartPoints(stats);
  const busy = query.isFetching || refresh.isPending;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{t('admin.pages.dashboard')}</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {t('admin.pageBody.dashboard')}
            {stats && (
              <span className="ms-1">
                {t('adminPanel.dashboard.updated', { time: formatRelative(stats.generated_at, i18n.language) })}
              </span>
            )}
          </p>
        </div>
        <RefreshButton
          label={t('adminPanel.dashboard.refresh')}
          fetching={busy}
          onRefresh={() =>
            refresh.mutate(undefined, {
              onError: (error) => {
                if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
              },
            })
          }
        />
      </div>

      {query.isError && !stats ? (
        <LoadError
          title={t('adminPanel.dashboard.loadFailed')}
          message={errorMessage(query.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <CountCards stats={stats} />
          <div className="grid gap-4 lg:grid-cols-2">
            <ChartCard
              title={t('adminPanel.dashboard.viewsTitle')}
              icon={History}
              points={points.views}
              names={[
                t('adminPanel.dashboard.series.pasteViews'),
                t('adminPanel.dashboard.series.fileViews'),
                t('adminPanel.dashboard.series.fileDownloads'),
              ]}
              empty={t('adminPanel.dashboard.noViews')}
              loading={!stats}
            />
            <ChartCard
              title={t('adminPanel.dashboard.uploadsTitle')}
              icon={Upload}
              points={points.uploads}
              names={[t('adminPanel.dashboard.series.pastes'), t('adminPanel.dashboard.series.files')]}
              empty={t('adminPanel.dashboard.noUploads')}
              loading={!stats}
            />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <Card title={t('adminPanel.dashboard.storageTitle')} icon={HardDrive}>
              <StorageUsage stats={stats} />
            </Card>
            <Card title={t('adminPanel.dashboard.recentTitle')} icon={History}>
              <RecentActivity stats={stats} />
            </Card>
            <Card title={t('adminPanel.dashboard.sharesTitle')} icon={Inbox}>
              <SharesCard stats={stats} />
            </Card>
          </div>
          <CacheCard />
        </>
      )}
    </div>
  );
}
