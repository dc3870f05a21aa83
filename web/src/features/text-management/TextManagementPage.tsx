import type { PasteListItem, PasteSortField } from '@clipnest/contract';
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Ellipsis,
  Eye,
  ExternalLink,
  FileText,
  KeyRound,
  Pencil,
  SearchX,
  Sparkles,
  Trash2,
  X,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { MarkdownView } from '../../components/markdown';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { EmptyState } from '../../components/ui/empty-state';
import { IconButton } from '../../components/ui/icon-button';
import { SearchField } from '../../components/ui/search-field';
import { Select } from '../../components/ui/select';
import { ListSkeleton } from '../../components/ui/list-skeleton';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { SelectionBar } from '../../components/ui/selection-bar';
import { Skeleton } from '../../components/ui/skeleton';
import { SortHeader } from '../../components/ui/sort-header';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format';
import { PlainTextView } from '../paste-view/PlainTextView';
import {
  pasteShareUrl,
  useClearExpiredPastes,
  useDeletePastes,
  usePasteDetail,
  usePasteList,
} from '../paste-view/pasteApi';
import { PasteEditDialog } from './PasteEditDialog';

const PAGE_SIZES = [10, 20, 50] as const;
const SEARCH_MIN = 2;

interface Sort {
  field: PasteSortField;
  order: 'asc' | 'desc';
}

function StatusBadges({ paste }: { paste: PasteListItem }) {
  const { t } = useTranslation();
  return (
    <div className="flex gap-1">
      {paste.expired ? (
        <Badge tone="danger">{t('paste.manage.status.expired')}</Badge>
      ) : (
        <Badge tone="success">{t('paste.manage.status.active')}</Badge>
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
  const tone = paste.expired ? 'text-destructive-soft-foreground' : undefined;
  if (compact) {
    return (
      <Tooltip content={formatDateTime(paste.expires_at, i18n.language)}>
        <span tabIndex={0} className={tone}>
          {formatRelative(paste.expires_at, i18n.language)}
        </span>
      </Tooltip>
    );
  }
  return (
    <span className="flex flex-col">
      <span className={tone}>{formatDateTime(paste.expires_at, i18n.language)}</span>
      <span className="text-xs text-muted-foreground">{formatRelative(paste.expires_at, i18n.language)}</span>
    </span>
  );
}

function Title({ paste }: { paste: PasteListItem }) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0">
      <p className="truncate font-medium">{paste.remark || paste.slug}</p>
      <p className="truncate text-xs text-muted-foreground">
        <span className="font-mono">/paste/{paste.slug}</span>
        <span aria-hidden="true"> · </span>
        {paste.type === 'markdown' ? t('paste.type.markdown') : t('paste.type.text')}
      </p>
      <p className="mt-0.5 line-clamp-1 text-xs text-muted-foreground" title={paste.preview}>
        {paste.preview.replace(/\s+/g, ' ').slice(0, 120) || t('paste.manage.emptyPreview')}
      </p>
    </div>
  );
}

interface RowHandlers {
  onView: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onCopy: () => void;
}

function RowActions({ paste, handlers }: { paste: PasteListItem; handlers: RowHandlers }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center justify-end gap-0.5">
      <IconButton label={t('paste.manage.viewOne', { slug: paste.slug })} size="icon-sm" onClick={handlers.onView}>
        <Eye className="size-4" />
      </IconButton>
      <IconButton label={t('paste.manage.editOne', { slug: paste.slug })} size="icon-sm" onClick={handlers.onEdit}>
        <Pencil className="size-4" />
      </IconButton>
      <DropdownMenu>
        <Tooltip content={t('common.moreActions')}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`${t('common.moreActions')}: ${paste.slug}`}>
              <Ellipsis className="size-4" />
            </Button>
          </DropdownMenuTrigger>
        </Tooltip>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={handlers.onCopy}>
            <Copy />
            {t('paste.manage.copyLink')}
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <a href={pasteShareUrl(paste.slug)} target="_blank" rel="noopener noreferrer">
              <ExternalLink />
              {t('paste.manage.openLink')}
            </a>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem destructive onSelect={handlers.onDelete}>
            <Trash2 />
            {t('common.delete')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
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

function PasteCard({
  paste,
  selected,
  onSelect,
  handlers,
}: {
  paste: PasteListItem;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  handlers: RowHandlers;
}) {
  const { t, i18n } = useTranslation();
  return (
    <li className="rounded-xl border border-border bg-surface p-4 shadow-sm" data-testid="paste-card">
      <div className="flex items-start gap-3">
        <label className="-m-2 grid size-10 shrink-0 place-items-center">
          <Checkbox
            checked={selected}
            onCheckedChange={(v) => onSelect(v === true)}
            aria-label={t('paste.manage.selectOne', { slug: paste.slug })}
          />
        </label>
        <div className="min-w-0 flex-1">
          <Title paste={paste} />
        </div>
        <RowActions paste={paste} handlers={handlers} />
      </div>
      <div className="mt-3">
        <StatusBadges paste={paste} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 border-t border-border pt-3 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">{t('paste.manage.columns.views')}</dt>
          <dd className="mt-0.5">
            <Views paste={paste} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('paste.manage.columns.size')}</dt>
          <dd className="mt-0.5">{formatBytes(paste.size, i18n.language)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('paste.manage.columns.expires')}</dt>
          <dd className="mt-0.5">
            <Expiry paste={paste} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('paste.manage.columns.created')}</dt>
          <dd className="mt-0.5">{formatRelative(paste.created_at, i18n.language)}</dd>
        </div>
      </dl>
    </li>
  );
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
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(10);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>({ field: 'created_at', order: 'desc' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
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
  const allSelected = items.length > 0 && items.every((p) => selected.has(p.id));
  const someSelected = items.some((p) => selected.has(p.id));
  const selectedItems = items.filter((p) => selected.has(p.id));

  const onSort = (field: PasteSortField) =>
    setSort((s) => ({ field, order: s.field === field && s.order === 'desc' ? 'asc' : 'desc' }));

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const result = await remove.mutateAsync(deleting.map((p) => p.id));
      // Deleting the whole last page moves back one page instead of showing an empty one.
      if (page > 1 && deleting.length >= items.length) setPage((p) => p - 1);
      toast.success(t('paste.manage.deleted', { count: result?.deleted ?? deleting.length }));
      setSelected((s) => {
        const next = new Set(s);
        for (const p of deleting) next.delete(p.id);
        return next;
      });
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

  const handlers = (paste: PasteListItem): RowHandlers => ({
    onView: () => setViewing(paste.id),
    onEdit: () => setEditing(paste.id),
    onDelete: () => setDeleting([paste]),
    onCopy: () =>
      void copyText(pasteShareUrl(paste.slug)).then((ok) =>
        ok ? toast.success(t('paste.result.linkCopied')) : toast.error(t('common.copyFailed')),
      ),
  });

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

        {someSelected && (
          <SelectionBar label={t('paste.manage.selection')} className="text-sm">
            <span className="font-medium">{t('paste.manage.selected', { count: selectedItems.length })}</span>
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())} className="text-inherit">
              <X className="size-4" aria-hidden="true" />
              {t('paste.manage.clearSelection')}
            </Button>
            <Button variant="destructive" size="sm" className="ms-auto" onClick={() => setDeleting(selectedItems)}>
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
            <div className="hidden lg:block">
              <Table aria-label={t('paste.manage.title')}>
                <THead>
                  <tr className="border-b border-border">
                    <TH className="w-px pe-0">
                      <Checkbox
                        checked={allSelected ? true : someSelected ? 'indeterminate' : false}
                        onCheckedChange={(v) => {
                          for (const p of items) toggle(p.id, v === true);
                        }}
                        aria-label={t('paste.manage.selectPage')}
                      />
                    </TH>
                    <SortHeader field="slug" sortedBy={sort.field} order={sort.order} onSort={onSort}>
                      {t('paste.manage.columns.paste')}
                    </SortHeader>
                    <TH>{t('paste.manage.columns.status')}</TH>
                    <SortHeader field="views" sortedBy={sort.field} order={sort.order} onSort={onSort}>
                      {t('paste.manage.columns.views')}
                    </SortHeader>
                    <SortHeader field="expires_at" sortedBy={sort.field} order={sort.order} onSort={onSort}>
                      {t('paste.manage.columns.expires')}
                    </SortHeader>
                    <SortHeader field="created_at" sortedBy={sort.field} order={sort.order} onSort={onSort}>
                      {t('paste.manage.columns.created')}
                    </SortHeader>
                    <TH className="text-end">
                      <span className="sr-only">{t('common.actions')}</span>
                    </TH>
                  </tr>
                </THead>
                <TBody>
                  {items.map((paste) => (
                    <TR
                      key={paste.id}
                      data-testid="paste-row"
                      data-state={selected.has(paste.id) ? 'selected' : undefined}
                    >
                      <TD className="w-px pe-0">
                        <Checkbox
                          checked={selected.has(paste.id)}
                          onCheckedChange={(v) => toggle(paste.id, v === true)}
                          aria-label={t('paste.manage.selectOne', { slug: paste.slug })}
                        />
                      </TD>
                      <TD className="max-w-64">
                        <Title paste={paste} />
                      </TD>
                      <TD className="whitespace-nowrap">
                        <StatusBadges paste={paste} />
                      </TD>
                      <TD className="whitespace-nowrap">
                        <Views paste={paste} />
                      </TD>
                      <TD className="whitespace-nowrap">
                        <Expiry paste={paste} compact />
                      </TD>
                      <TD className="whitespace-nowrap text-muted-foreground">
                        <CreatedAt iso={paste.created_at} />
                      </TD>
                      <TD className="w-px whitespace-nowrap ps-0">
                        <RowActions paste={paste} handlers={handlers(paste)} />
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            </div>
            <ul className="grid gap-3 sm:grid-cols-2 lg:hidden">
              {items.map((paste) => (
                <PasteCard
                  key={paste.id}
                  paste={paste}
                  selected={selected.has(paste.id)}
                  onSelect={(on) => toggle(paste.id, on)}
                  handlers={handlers(paste)}
                />
              ))}
            </ul>
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

function CreatedAt({ iso }: { iso: string }) {
  const { i18n } = useTranslation();
  return (
    <Tooltip content={formatDateTime(iso, i18n.language)}>
      <span tabIndex={0} className="rounded-sm">
        {formatRelative(iso, i18n.language)}
      </span>
    </Tooltip>
  );
}
