import { FILE_LIST_DEFAULT_LIMIT, type DeleteMode, type FileSortField, type FileView } from '@clipnest/contract';
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  Ellipsis,
  ExternalLink,
  FileUp,
  Files,
  Lock,
  Pencil,
  SearchX,
  Trash2,
  X,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ChoiceChips } from '../../components/ui/choice-chips';
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
import { ListSkeleton } from '../../components/ui/list-skeleton';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { SearchField } from '../../components/ui/search-field';
import { SelectionBar } from '../../components/ui/selection-bar';
import { Skeleton } from '../../components/ui/skeleton';
import { SortHeader } from '../../components/ui/sort-header';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative, isPast } from '../../lib/format';
import { shareLink, useDeleteFiles, useFiles } from './api';
import { FileEditDialog } from './FileEditDialog';

const SEARCH_MIN = 2;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function Views({ file }: { file: FileView }) {
  const exhausted = file.max_views > 0 && file.views >= file.max_views;
  return (
    <span className={exhausted ? 'text-destructive-soft-foreground tabular-nums' : 'tabular-nums'}>
      {file.views}
      {file.max_views > 0 ? ` / ${file.max_views}` : ''}
    </span>
  );
}

function Expiry({ value }: { value: string | null }) {
  const { t, i18n } = useTranslation();
  if (!value) return <span className="text-muted-foreground">{t('files.expiry.never')}</span>;
  return (
    <span
      className={isPast(value) ? 'text-destructive-soft-foreground' : undefined}
      title={formatDateTime(value, i18n.language)}
    >
      {isPast(value) ? t('files.manage.expired') : formatRelative(value, i18n.language)}
    </span>
  );
}

interface RowHandlers {
  onEdit: () => void;
  onDelete: () => void;
  onCopy: () => void;
}

function RowActions({ file, onEdit, onDelete, onCopy }: { file: FileView } & RowHandlers) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center justify-end gap-0.5">
      <IconButton label={t('files.manage.copyLinkOf', { name: file.filename })} size="icon-sm" onClick={onCopy}>
        <Copy className="size-4" />
      </IconButton>
      <DropdownMenu>
        <Tooltip content={t('common.moreActions')}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`${t('common.moreActions')}: ${file.filename}`}>
              <Ellipsis className="size-4" />
            </Button>
          </DropdownMenuTrigger>
        </Tooltip>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={onEdit}>
            <Pencil />
            {t('common.edit')}
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to={`/file/${encodeURIComponent(file.slug)}`} target="_blank" rel="noopener">
              <ExternalLink />
              {t('files.manage.open')}
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onCopy}>
            <Copy />
            {t('files.view.copyLink')}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem destructive onSelect={onDelete}>
            <Trash2 />
            {t('common.delete')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}

function FileName({ file }: { file: FileView }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="min-w-0">
      <p className="flex items-center gap-1.5 font-medium">
        <span className="truncate" title={file.filename}>
          {file.filename}
        </span>
        {file.has_password && (
          <Lock className="size-3.5 shrink-0 text-muted-foreground" aria-label={t('files.upload.options.password')} />
        )}
      </p>
      <p className="truncate text-xs text-muted-foreground">
        {formatBytes(file.size, i18n.language)} · <span className="font-mono">{file.slug}</span>
      </p>
    </div>
  );
}

function FileCard({
  file,
  selected,
  onSelect,
  ...handlers
}: { file: FileView; selected: boolean; onSelect: (on: boolean) => void } & RowHandlers) {
  const { t, i18n } = useTranslation();
  return (
    <li className="rounded-xl border border-border bg-surface p-4 shadow-sm" data-testid="file-card">
      <div className="flex items-start gap-3">
        <Checkbox
          checked={selected}
          onCheckedChange={(v) => onSelect(v === true)}
          aria-label={t('files.manage.selectOne', { name: file.filename })}
          className="mt-1 pointer-coarse:size-5"
        />
        <div className="min-w-0 flex-1">
          <FileName file={file} />
        </div>
        <RowActions file={file} {...handlers} />
      </div>
      {file.remark && <p className="mt-2 line-clamp-2 text-sm text-muted-foreground">{file.remark}</p>}
      <dl className="mt-3 grid grid-cols-3 gap-3 border-t border-border pt-3 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">{t('files.manage.columns.views')}</dt>
          <dd className="mt-0.5">
            <Views file={file} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('files.manage.columns.expires')}</dt>
          <dd className="mt-0.5 truncate">
            <Expiry value={file.expires_at} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('files.manage.columns.created')}</dt>
          <dd className="mt-0.5 break-words">{formatRelative(file.created_at, i18n.language)}</dd>
        </div>
      </dl>
    </li>
  );
}

function FileListSkeleton() {
  return (
    <ListSkeleton
      rowClassName="h-[61px]"
      row={
        <>
          <Skeleton className="size-4" />
          <div className="w-64 space-y-2">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-3 w-32" />
          </div>
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-12" />
          <Skeleton className="h-4 w-20" />
          <Skeleton className="ms-auto h-6 w-16" />
        </>
      }
      card={
        <>
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-3 w-32" />
          <Skeleton className="h-10 w-full" />
        </>
      }
    />
  );
}

/** Admin file management (spec §2, §7 Files): search, sort, pages, edit, batch delete, copy link. */
export default function FileManagementPage() {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const debounced = useDebounced(query.trim(), 300);
  const search = debounced.length >= SEARCH_MIN ? debounced : '';
  const [sort, setSort] = useState<FileSortField>('created_at');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [offset, setOffset] = useState(0);
  const limit = FILE_LIST_DEFAULT_LIMIT;
  const files = useFiles({ limit, offset, search, sort, order });
  const remove = useDeleteFiles();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<FileView | null>(null);
  const [deleting, setDeleting] = useState<FileView[] | null>(null);
  const [mode, setMode] = useState<DeleteMode>('both');

  const items = useMemo(() => files.data?.items ?? [], [files.data]);
  const total = files.data?.total ?? 0;
  const visibleIds = items.map((f) => f.id);
  const selectedVisible = visibleIds.filter((id) => selected.has(id));
  const allChecked = items.length > 0 && selectedVisible.length === items.length;

  const onSort = (column: FileSortField) => {
    if (sort === column) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(column);
      setOrder(column === 'filename' ? 'asc' : 'desc');
    }
    setOffset(0);
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const copy = async (file: FileView) => {
    if (await copyText(shareLink(file.slug))) toast.success(t('files.view.linkCopied'));
    else toast.error(t('common.copyFailed'));
  };

  async function confirmDelete() {
    if (!deleting) return;
    try {
      const result = await remove.mutateAsync({ ids: deleting.map((f) => f.id), mode });
      if (result.failed.length > 0) {
        toast.error(t('files.manage.deletePartial', { deleted: result.deleted, failed: result.failed.length }), {
          description: result.failed[0]?.message,
        });
      } else toast.success(t('files.manage.deleted', { count: result.deleted }));
      setSelected((s) => {
        const next = new Set(s);
        for (const f of deleting) next.delete(f.id);
        return next;
      });
      setDeleting(null);
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  const handlers = (file: FileView): RowHandlers => ({
    onEdit: () => setEditing(file),
    onDelete: () => {
      setMode('both');
      setDeleting([file]);
    },
    onCopy: () => void copy(file),
  });

  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('admin.pages.fileManagement')} description={t('files.manage.description')}>
        <RefreshButton label={t('common.refresh')} fetching={files.isFetching} onRefresh={() => void files.refetch()} />
        <Link to="/upload" className={buttonClasses('primary', 'md', 'flex-1 sm:flex-none')}>
          <FileUp className="size-4" aria-hidden="true" />
          {t('files.manage.upload')}
        </Link>
      </PageHeader>

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <SearchField
            value={query}
            onValueChange={(value) => {
              setQuery(value);
              setOffset(0);
            }}
            label={t('files.manage.searchPlaceholder')}
            className="sm:max-w-sm"
          />
          {query.trim().length === 1 && (
            <span className="text-xs text-muted-foreground">{t('files.manage.searchMin', { count: SEARCH_MIN })}</span>
          )}
          {files.data && (
            <span className="ms-auto whitespace-nowrap text-sm text-muted-foreground">
              {t('files.manage.count', { count: total })}
            </span>
          )}
        </div>

        {selected.size > 0 && (
          <SelectionBar label={t('files.manage.selectionBar')} className="sticky top-2 z-20 shadow-sm">
            <span className="text-sm font-medium">{t('files.manage.selected', { count: selected.size })}</span>
            <Button
              variant="destructive"
              size="sm"
              className="ms-auto"
              onClick={() => {
                const all = items.filter((f) => selected.has(f.id));
                setMode('both');
                setDeleting(all.length > 0 ? all : null);
              }}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              {t('files.manage.deleteSelected', { count: selected.size })}
            </Button>
            <IconButton label={t('files.manage.clearSelection')} size="icon-sm" onClick={() => setSelected(new Set())}>
              <X className="size-4" />
            </IconButton>
          </SelectionBar>
        )}

        {files.isPending ? (
          <FileListSkeleton />
        ) : files.isError ? (
          <LoadError
            title={t('files.manage.loadFailed')}
            message={errorMessage(files.error)}
            retryLabel={t('common.retry')}
            onRetry={() => void files.refetch()}
          />
        ) : items.length === 0 && search ? (
          <EmptyState icon={SearchX} title={t('files.manage.noMatch', { query: search })} />
        ) : items.length === 0 ? (
          <EmptyState
            icon={Files}
            title={t('files.manage.emptyTitle')}
            description={t('files.manage.emptyBody')}
            action={
              <Link to="/upload" className={buttonClasses('primary')}>
                <FileUp className="size-4" aria-hidden="true" />
                {t('files.manage.emptyAction')}
              </Link>
            }
          />
        ) : (
          <>
            <div className="hidden lg:block">
              <Table>
                <THead>
                  <tr className="border-b border-border">
                    <TH className="w-10 pe-0">
                      <Checkbox
                        checked={allChecked ? true : selectedVisible.length > 0 ? 'indeterminate' : false}
                        onCheckedChange={(v) =>
                          setSelected((s) => {
                            const next = new Set(s);
                            for (const id of visibleIds) {
                              if (v === true) next.add(id);
                              else next.delete(id);
                            }
                            return next;
                          })
                        }
                        aria-label={t('files.manage.selectAll')}
                      />
                    </TH>
                    <SortHeader field="filename" sortedBy={sort} order={order} onSort={onSort}>
                      {t('files.manage.columns.file')}
                    </SortHeader>
                    <TH>{t('files.manage.columns.storage')}</TH>
                    <SortHeader field="size" sortedBy={sort} order={order} onSort={onSort}>
                      {t('files.manage.columns.size')}
                    </SortHeader>
                    <SortHeader field="views" sortedBy={sort} order={order} onSort={onSort}>
                      {t('files.manage.columns.views')}
                    </SortHeader>
                    <SortHeader field="expires_at" sortedBy={sort} order={order} onSort={onSort}>
                      {t('files.manage.columns.expires')}
                    </SortHeader>
                    <SortHeader field="created_at" sortedBy={sort} order={order} onSort={onSort}>
                      {t('files.manage.columns.created')}
                    </SortHeader>
                    <TH className="text-end">
                      <span className="sr-only">{t('common.actions')}</span>
                    </TH>
                  </tr>
                </THead>
                <TBody>
                  {items.map((file) => (
                    <TR
                      key={file.id}
                      data-testid="file-row"
                      data-state={selected.has(file.id) ? 'selected' : undefined}
                    >
                      <TD className="w-10 pe-0">
                        <Checkbox
                          checked={selected.has(file.id)}
                          onCheckedChange={(v) => toggle(file.id, v === true)}
                          aria-label={t('files.manage.selectOne', { name: file.filename })}
                        />
                      </TD>
                      <TD className="max-w-72">
                        <FileName file={file} />
                      </TD>
                      <TD className="max-w-40">
                        <Badge className="max-w-full">
                          <span className="truncate">{file.storage_config_name ?? file.provider_type}</span>
                        </Badge>
                      </TD>
                      <TD className="whitespace-nowrap tabular-nums">{formatBytes(file.size, i18n.language)}</TD>
                      <TD className="whitespace-nowrap">
                        <Views file={file} />
                      </TD>
                      <TD className="whitespace-nowrap">
                        <Expiry value={file.expires_at} />
                      </TD>
                      <TD className="whitespace-nowrap" title={formatDateTime(file.created_at, i18n.language)}>
                        {formatRelative(file.created_at, i18n.language)}
                      </TD>
                      <TD className="w-px whitespace-nowrap ps-0">
                        <RowActions file={file} {...handlers(file)} />
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            </div>
            <ul className="grid gap-3 sm:grid-cols-2 lg:hidden">
              {items.map((file) => (
                <FileCard
                  key={file.id}
                  file={file}
                  selected={selected.has(file.id)}
                  onSelect={(on) => toggle(file.id, on)}
                  {...handlers(file)}
                />
              ))}
            </ul>
            {total > limit && (
              <nav className="flex items-center justify-between gap-2" aria-label={t('files.manage.pagination')}>
                <span className="text-sm tabular-nums text-muted-foreground">
                  {t('files.manage.range', { from, to, total })}
                </span>
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={offset === 0}
                    onClick={() => setOffset(Math.max(0, offset - limit))}
                  >
                    <ChevronLeft className="size-4 rtl:rotate-180" aria-hidden="true" />
                    {t('files.manage.prev')}
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={offset + limit >= total}
                    onClick={() => setOffset(offset + limit)}
                  >
                    {t('files.manage.next')}
                    <ChevronRight className="size-4 rtl:rotate-180" aria-hidden="true" />
                  </Button>
                </div>
              </nav>
            )}
          </>
        )}
      </div>

      <FileEditDialog file={editing} onClose={() => setEditing(null)} />

      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent
          title={
            deleting?.length === 1
              ? t('files.manage.deleteOneTitle', { name: deleting[0]!.filename })
              : t('files.manage.deleteManyTitle', { count: deleting?.length ?? 0 })
          }
          description={t('files.manage.deleteBody')}
          footer={
            <>
              <Button variant="secondary" onClick={() => setDeleting(null)} disabled={remove.isPending}>
                {t('common.cancel')}
              </Button>
              <Button variant="destructive" loading={remove.isPending} onClick={() => void confirmDelete()}>
                <Trash2 className="size-4" aria-hidden="true" />
                {t('common.delete')}
              </Button>
            </>
          }
        >
          <div className="flex flex-col gap-3">
            <p className="text-sm font-medium" id="delete-mode-label">
              {t('files.manage.deleteMode')}
            </p>
            <ChoiceChips
              label={t('files.manage.deleteMode')}
              value={mode}
              onChange={setMode}
              options={[
                { value: 'both', label: t('files.manage.modeBoth') },
                { value: 'record', label: t('files.manage.modeRecord') },
              ]}
            />
            <p className="text-xs text-muted-foreground">
              {mode === 'both' ? t('files.manage.modeBothHelp') : t('files.manage.modeRecordHelp')}
            </p>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}
