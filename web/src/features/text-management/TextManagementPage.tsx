import type { PasteListItem, PasteSortField } from '@clipnest/contract';
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Eye,
  ExternalLink,
  FileText,
  KeyRound,
  Pencil,
  SearchX,
  Sparkles,
  Trash2,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { MarkdownView } from '../../components/markdown';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataList, type DataListColumn } from '../../components/ui/data-list';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { IconButton } from '../../components/ui/icon-button';
import { ListSkeleton } from '../../components/ui/list-skeleton';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { RelativeTime } from '../../components/ui/relative-time';
import { RowActions } from '../../components/ui/row-actions';
import { SearchField } from '../../components/ui/search-field';
import { Select } from '../../components/ui/select';
import { SelectionBar } from '../../components/ui/selection-bar';
import { Skeleton } from '../../components/ui/skeleton';
import { useRowSelection } from '../../components/ui/use-row-selection';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format';
import { PlainTextView } from '../pastes/PlainTextView';
import { pasteShareUrl, useClearExpiredPastes, useDeletePastes, usePasteDetail, usePasteList } from '../pastes/api';
import { PasteEditDialog } from './PasteEditDialog';

const PAGE_SIZES = [10, 20, 50] as const;
const SEARCH_MIN = 2;

interface Sort {
  field: PasteSortField;
  order: 'asc' | 'desc';
}

/** Gone because its view limit is used up (its expiry time, if any, is still ahead). */
function viewsUsedUp(paste: Pick<PasteListItem, 'max_views' | 'views'>): boolean {
  return paste.max_views > 0 && paste.views >= paste.max_views;
}

/** Past its expiry time. */
function timeExpired(paste: Pick<PasteListItem, 'expires_at'>): boolean {
  return paste.expires_at !== null && Date.parse(paste.expires_at) <= Date.now();
}

function StatusBadges({ paste }: { paste: PasteListItem }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap gap-1">
      {paste.expired ? (
        // "Expired" beside "expires in 55 minutes" read as a contradiction: say why it is gone.
        <Badge tone="danger" data-testid="paste-status">
          {viewsUsedUp(paste) && !timeExpired(paste)
            ? t('paste.manage.status.noViewsLeft')
            : t('paste.manage.status.expired')}
        </Badge>
      ) : (
        <Badge tone="success">{t('paste.manage.status.active')}</Badge>
      )}
      {paste.encrypted && (
        <Badge tone="primary" data-testid="paste-encrypted-badge">
          {t('paste.manage.encrypted')}
        </Badge>
      )}
      {paste.has_password && (
        <Badge tone="warning">
          <KeyRound aria-hidden="true" />
          {t('paste.manage.status.password')}
        </Badge>
      )}
    </div>
  );
}

function Views({ paste }: { paste: PasteListItem }) {
  const { t } = useTranslation();
  return (
    <span className="tabular-nums">
      {paste.max_views > 0
        ? t('paste.manage.viewsOf', { views: paste.views, max: paste.max_views })
        : t('paste.manage.viewsUnlimited', { views: paste.views })}
    </span>
  );
}

function Expiry({ paste, compact = false }: { paste: PasteListItem; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  if (!paste.expires_at) return <span className="text-muted-foreground">{t('time.never')}</span>;
  const tone = timeExpired(paste) ? 'text-destructive-soft-foreground' : undefined;
  if (compact) return <RelativeTime iso={paste.expires_at} className={tone} />;
  return (
    <span className="flex flex-col">
      <span className={tone}>{formatDateTime(paste.expires_at, i18n.language)}</span>
      <span className="text-xs text-muted-foreground">{formatRelative(paste.expires_at, i18n.language)}</span>
    </span>
  );
}

function Title({ paste }: { paste: PasteListItem }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="min-w-0">
      <p className="truncate font-medium">{paste.remark || paste.slug}</p>
      <p className="truncate text-xs text-muted-foreground">
        <span className="font-mono">/paste/{paste.slug}</span>
        <span aria-hidden="true"> · </span>
        {/* The server cannot read an encrypted paste: neither its type nor a preview are known. */}
        {paste.encrypted
          ? t('paste.manage.e2eeType')
          : paste.type === 'markdown'
            ? t('paste.type.markdown')
            : t('paste.type.text')}
      </p>
      <p
        className="mt-0.5 line-clamp-1 text-xs text-muted-foreground"
        title={paste.preview}
        data-testid="paste-preview"
      >
        {paste.encrypted
          ? t('paste.manage.e2eePreview', { size: formatBytes(paste.size, i18n.language) })
          : paste.preview.replace(/\s+/g, ' ').slice(0, 120) || t('paste.manage.emptyPreview')}
      </p>
    </div>
  );
}

function PasteListSkeleton() {
  return (
    <ListSkeleton
      rowClassName="h-[76px]"
      row={
        <>
          <Skeleton className="size-4" />
          <div className="w-64 space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-28" />
          </div>
          <Skeleton className="h-6 w-36" />
          <Skeleton className="h-4 w-16" />
          <Skeleton className="h-4 w-28" />
          <Skeleton className="ms-auto h-6 w-20" />
        </>
      }
      card={
        <>
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-3 w-28" />
          <Skeleton className="h-6 w-52" />
        </>
      }
    />
  );
}

/** The table columns; on phones the card shows the same facts. */
function usePasteColumns(): DataListColumn<PasteListItem, PasteSortField>[] {
  const { t } = useTranslation();
  return [
    {
      id: 'paste',
      header: t('paste.manage.columns.paste'),
      sortField: 'slug',
      className: 'max-w-64',
      cell: (paste) => <Title paste={paste} />,
    },
    {
      id: 'status',
      header: t('paste.manage.columns.status'),
      className: 'whitespace-nowrap',
      cell: (paste) => <StatusBadges paste={paste} />,
    },
    {
      id: 'views',
      header: t('paste.manage.columns.views'),
      sortField: 'views',
      className: 'whitespace-nowrap',
      cell: (paste) => <Views paste={paste} />,
    },
    {
      id: 'expires',
      header: t('paste.manage.columns.expires'),
      sortField: 'expires_at',
      className: 'whitespace-nowrap',
      cell: (paste) => <Expiry paste={paste} compact />,
    },
    {
      id: 'created',
      header: t('paste.manage.columns.created'),
      sortField: 'created_at',
      className: 'whitespace-nowrap text-muted-foreground',
      cell: (paste) => <RelativeTime iso={paste.created_at} />,
    },
  ];
}

function ViewDialog({ id, onClose, onEdit }: { id: string | null; onClose: () => void; onEdit: (id: string) => void }) {
  const { t } = useTranslation();
  const detail = usePasteDetail(id);
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={detail.data ? detail.data.remark || detail.data.slug : t('common.loading')}
        description={detail.data ? `/paste/${detail.data.slug}` : undefined}
        className="sm:max-w-3xl"
        onOpenAutoFocus={(event) => event.preventDefault()}
        footer={
          detail.data && (
            <>
              <a
                href={pasteShareUrl(detail.data.slug)}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonClasses('secondary')}
              >
                <ExternalLink className="size-4" aria-hidden="true" />
                {t('paste.manage.openLink')}
              </a>
              <Button onClick={() => onEdit(detail.data.id)}>
                <Pencil className="size-4" aria-hidden="true" />
                {t('common.edit')}
              </Button>
            </>
          )
        }
      >
        {detail.isPending ? (
          <div className="space-y-3">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </div>
        ) : detail.isError ? (
          <Alert tone="danger" title={t('paste.manage.loadOneFailed')}>
            {errorMessage(detail.error)}
          </Alert>
        ) : detail.data.type === 'markdown' ? (
          <MarkdownView source={detail.data.content} />
        ) : (
          <PlainTextView text={detail.data.content} label={t('paste.view.contentLabel')} />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Text management (spec §2, §6): every paste (a key holder sees its own) with search, sort and cleanup. */
export default function TextManagementPage() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(10);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>({ field: 'created_at', order: 'desc' });
  const selection = useRowSelection();
  const columns = usePasteColumns();
  const [viewing, setViewing] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PasteListItem[] | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      const q = searchInput.trim();
      const next = q.length >= SEARCH_MIN ? q : '';
      setSearch((prev) => {
        if (prev !== next) setPage(1);
        return next;
      });
    }, 300);
    return () => window.clearTimeout(timer);
  }, [searchInput]);

  const list = usePasteList({ page, limit, search, sort: sort.field, order: sort.order });
  const remove = useDeletePastes();
  const clearExpired = useClearExpiredPastes();
  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / limit));
  const selectedItems = items.filter((p) => selection.has(p.id));

  const onSort = (field: PasteSortField) =>
    setSort((s) => ({ field, order: s.field === field && s.order === 'desc' ? 'asc' : 'desc' }));

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const result = await remove.mutateAsync(deleting.map((p) => p.id));
      // Deleting the whole last page moves back one page instead of showing an empty one.
      if (page > 1 && deleting.length >= items.length) setPage((p) => p - 1);
      toast.success(t('paste.manage.deleted', { count: result?.deleted ?? deleting.length }));
      selection.setMany(
        deleting.map((p) => p.id),
        false,
      );
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
    setDeleting(null);
  }

  async function confirmClearExpired() {
    try {
      const result = await clearExpired.mutateAsync();
      toast.success(t('paste.manage.cleared', { count: result?.deleted ?? 0 }));
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
    setConfirmClear(false);
  }

  const copyLink = (paste: PasteListItem) =>
    void copyText(pasteShareUrl(paste.slug)).then((ok) =>
      ok ? toast.success(t('paste.result.linkCopied')) : toast.error(t('common.copyFailed')),
    );

  const searching = search !== '';
  const empty = !list.isPending && !list.isError && total === 0;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('paste.manage.title')} description={t('paste.manage.description')}>
        <RefreshButton label={t('common.refresh')} fetching={list.isFetching} onRefresh={() => void list.refetch()} />
        <Button variant="secondary" onClick={() => setConfirmClear(true)} className="flex-1 sm:flex-none">
          <Sparkles className="size-4" aria-hidden="true" />
          {t('paste.manage.clearExpired')}
        </Button>
      </PageHeader>

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <SearchField
            value={searchInput}
            onValueChange={setSearchInput}
            label={t('paste.manage.searchPlaceholder')}
            className="sm:max-w-sm"
          />
          {searchInput.trim().length === 1 && (
            <span className="text-xs text-muted-foreground">{t('paste.manage.searchMin', { count: SEARCH_MIN })}</span>
          )}
          <span className="ms-auto whitespace-nowrap text-sm text-muted-foreground" aria-live="polite">
            {t('paste.manage.count', { count: total })}
          </span>
        </div>

        {selectedItems.length > 0 && (
          <SelectionBar
            label={t('paste.manage.selection')}
            summary={t('paste.manage.selected', { count: selectedItems.length })}
            clearLabel={t('paste.manage.clearSelection')}
            onClear={selection.clear}
          >
            <Button variant="destructive" size="sm" onClick={() => setDeleting(selectedItems)}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t('paste.manage.deleteSelected', { count: selectedItems.length })}
            </Button>
          </SelectionBar>
        )}

        {list.isPending ? (
          <PasteListSkeleton />
        ) : list.isError ? (
          <LoadError
            title={t('paste.manage.loadFailed')}
            message={errorMessage(list.error)}
            retryLabel={t('common.retry')}
            onRetry={() => void list.refetch()}
          />
        ) : empty && searching ? (
          <EmptyState icon={SearchX} title={t('paste.manage.noMatch', { query: search })} />
        ) : empty ? (
          <EmptyState
            icon={FileText}
            title={t('paste.manage.emptyTitle')}
            description={t('paste.manage.emptyBody')}
            action={
              <Link to="/" className={buttonClasses('primary')}>
                {t('paste.manage.emptyAction')}
              </Link>
            }
          />
        ) : (
          <>
            <DataList
              items={items}
              getId={(paste) => paste.id}
              columns={columns}
              sort={{ field: sort.field, order: sort.order, onSort }}
              selection={{
                rows: selection,
                allLabel: t('paste.manage.selectPage'),
                itemLabel: (paste) => t('paste.manage.selectOne', { slug: paste.slug }),
              }}
              label={t('paste.manage.title')}
              rowTestId="paste-row"
              cardTestId="paste-card"
              actions={(paste) => (
                <RowActions
                  name={paste.slug}
                  quick={[
                    {
                      label: t('paste.manage.viewOne', { slug: paste.slug }),
                      icon: Eye,
                      onClick: () => setViewing(paste.id),
                    },
                    {
                      label: t('paste.manage.editOne', { slug: paste.slug }),
                      icon: Pencil,
                      onClick: () => setEditing(paste.id),
                    },
                  ]}
                  menu={[
                    { label: t('paste.manage.copyLink'), icon: Copy, onSelect: () => copyLink(paste) },
                    { label: t('paste.manage.openLink'), icon: ExternalLink, href: pasteShareUrl(paste.slug) },
                    {
                      label: t('common.delete'),
                      icon: Trash2,
                      destructive: true,
                      onSelect: () => setDeleting([paste]),
                    },
                  ]}
                />
              )}
              card={{
                title: (paste) => <Title paste={paste} />,
                body: (paste) => <StatusBadges paste={paste} />,
                facts: (paste) => [
                  { label: t('paste.manage.columns.views'), value: <Views paste={paste} /> },
                  { label: t('paste.manage.columns.size'), value: formatBytes(paste.size, i18n.language) },
                  { label: t('paste.manage.columns.expires'), value: <Expiry paste={paste} /> },
                  { label: t('paste.manage.columns.created'), value: formatRelative(paste.created_at, i18n.language) },
                ],
              }}
            />
            <nav
              className="flex flex-wrap items-center justify-between gap-3 pt-1"
              aria-label={t('paste.manage.pagination')}
            >
              <label className="flex items-center gap-2 text-sm text-muted-foreground">
                {t('paste.manage.perPage')}
                <Select
                  value={String(limit)}
                  onChange={(event) => {
                    setLimit(Number(event.target.value));
                    setPage(1);
                  }}
                  className="w-20"
                >
                  {PAGE_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {size}
                    </option>
                  ))}
                </Select>
              </label>
              <div className="flex items-center gap-2">
                <IconButton
                  label={t('paste.manage.previousPage')}
                  variant="secondary"
                  disabled={page <= 1}
                  onClick={() => setPage((p) => Math.max(1, p - 1))}
                >
                  <ChevronLeft className="size-4 rtl:rotate-180" />
                </IconButton>
                <span className="min-w-24 text-center text-sm tabular-nums" aria-live="polite">
                  {t('paste.manage.pageOf', { page, pages })}
                </span>
                <IconButton
                  label={t('paste.manage.nextPage')}
                  variant="secondary"
                  disabled={page >= pages}
                  onClick={() => setPage((p) => Math.min(pages, p + 1))}
                >
                  <ChevronRight className="size-4 rtl:rotate-180" />
                </IconButton>
              </div>
            </nav>
          </>
        )}
      </div>

      <ViewDialog
        id={viewing}
        onClose={() => setViewing(null)}
        onEdit={(id) => {
          setViewing(null);
          setEditing(id);
        }}
      />
      <PasteEditDialog id={editing} onClose={() => setEditing(null)} />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={
          deleting && deleting.length === 1
            ? t('paste.manage.deleteOneTitle', { slug: deleting[0]!.slug })
            : t('paste.manage.deleteManyTitle', { count: deleting?.length ?? 0 })
        }
        description={t('paste.manage.deleteBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title={t('paste.manage.clearExpiredTitle')}
        description={t('paste.manage.clearExpiredBody')}
        confirmLabel={t('paste.manage.clearExpired')}
        busy={clearExpired.isPending}
        onConfirm={() => void confirmClearExpired()}
      />
    </div>
  );
}
