import { FILE_LIST_DEFAULT_LIMIT, type DeleteMode, type FileSortField, type FileView } from '@clipnest/contract';
import {
  ChevronLeft,
  ChevronRight,
  Copy,
  ExternalLink,
  FileUp,
  Files,
  Lock,
  Pencil,
  SearchX,
  Trash2,
} from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { DataList, type DataListColumn } from '../../components/ui/data-list';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { ListSkeleton } from '../../components/ui/list-skeleton';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { RelativeTime } from '../../components/ui/relative-time';
import { RowActions } from '../../components/ui/row-actions';
import { SearchField } from '../../components/ui/search-field';
import { SelectionBar } from '../../components/ui/selection-bar';
import { Skeleton } from '../../components/ui/skeleton';
import { useRowSelection } from '../../components/ui/use-row-selection';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative, isPast } from '../../lib/format';
import { useDebounced } from '../../lib/useDebounced';
import { storageConfigName } from '../../lib/storageConfigName';
import { shareLink, useDeleteFiles, useFiles } from './api';
import { FileEditDialog } from './FileEditDialog';
import { FolderSharesSection } from './FolderSharesSection';
import { UploadRequestsSection } from './UploadRequestsSection';

const SEARCH_MIN = 2;

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

/** The table columns; on phones the same facts show in cards. */
function useFileColumns(): DataListColumn<FileView, FileSortField>[] {
  const { t, i18n } = useTranslation();
  return [
    {
      id: 'file',
      header: t('files.manage.columns.file'),
      sortField: 'filename',
      className: 'max-w-64',
      cell: (file) => <FileName file={file} />,
    },
    {
      id: 'storage',
      header: t('files.manage.columns.storage'),
      className: 'max-w-40',
      cell: (file) => (
        <Badge className="max-w-full">
          <span className="truncate">
            {file.storage_config_name === null
              ? file.provider_type
              : storageConfigName(t, { name: file.storage_config_name, is_builtin: file.storage_config_builtin })}
          </span>
        </Badge>
      ),
    },
    {
      id: 'size',
      header: t('files.manage.columns.size'),
      sortField: 'size',
      className: 'whitespace-nowrap tabular-nums',
      cell: (file) => formatBytes(file.size, i18n.language),
    },
    {
      id: 'views',
      header: t('files.manage.columns.views'),
      sortField: 'views',
      className: 'whitespace-nowrap',
      cell: (file) => <Views file={file} />,
    },
    {
      id: 'expires',
      header: t('files.manage.columns.expires'),
      sortField: 'expires_at',
      className: 'whitespace-nowrap',
      cell: (file) => <Expiry value={file.expires_at} />,
    },
    {
      id: 'created',
      header: t('files.manage.columns.created'),
      sortField: 'created_at',
      className: 'whitespace-nowrap',
      cell: (file) => <RelativeTime iso={file.created_at} />,
    },
  ];
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
  const selection = useRowSelection();
  const columns = useFileColumns();
  const [editing, setEditing] = useState<FileView | null>(null);
  const [deleting, setDeleting] = useState<FileView[] | null>(null);
  const [mode, setMode] = useState<DeleteMode>('both');

  const items = useMemo(() => files.data?.items ?? [], [files.data]);
  const total = files.data?.total ?? 0;

  const onSort = (column: FileSortField) => {
    if (sort === column) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(column);
      setOrder(column === 'filename' ? 'asc' : 'desc');
    }
    setOffset(0);
  };
  const copy = async (file: FileView) => {
    if (await copyText(shareLink(file.slug))) toast.success(t('files.view.linkCopied'));
    else toast.error(t('common.copyFailed'));
  };
  const askDelete = (list: FileView[]) => {
    setMode('both');
    setDeleting(list.length > 0 ? list : null);
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
      selection.setMany(
        deleting.map((f) => f.id),
        false,
      );
      setDeleting(null);
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

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

        {selection.size > 0 && (
          <SelectionBar
            label={t('files.manage.selectionBar')}
            summary={t('files.manage.selected', { count: selection.size })}
            clearLabel={t('files.manage.clearSelection')}
            onClear={selection.clear}
          >
            <Button variant="destructive" size="sm" onClick={() => askDelete(items.filter((f) => selection.has(f.id)))}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t('files.manage.deleteSelected', { count: selection.size })}
            </Button>
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
            <DataList
              items={items}
              getId={(file) => file.id}
              columns={columns}
              sort={{ field: sort, order, onSort }}
              selection={{
                rows: selection,
                allLabel: t('files.manage.selectAll'),
                itemLabel: (file) => t('files.manage.selectOne', { name: file.filename }),
              }}
              rowTestId="file-row"
              cardTestId="file-card"
              actions={(file) => (
                <RowActions
                  name={file.filename}
                  quick={[
                    {
                      label: t('files.manage.copyLinkOf', { name: file.filename }),
                      icon: Copy,
                      onClick: () => void copy(file),
                    },
                  ]}
                  menu={[
                    { label: t('common.edit'), icon: Pencil, onSelect: () => setEditing(file) },
                    {
                      label: t('files.manage.open'),
                      icon: ExternalLink,
                      href: `/file/${encodeURIComponent(file.slug)}`,
                    },
                    { label: t('files.view.copyLink'), icon: Copy, onSelect: () => void copy(file) },
                    { label: t('common.delete'), icon: Trash2, destructive: true, onSelect: () => askDelete([file]) },
                  ]}
                />
              )}
              card={{
                title: (file) => <FileName file={file} />,
                body: (file) =>
                  file.remark && <p className="line-clamp-2 text-sm text-muted-foreground">{file.remark}</p>,
                factColumns: 3,
                facts: (file) => [
                  { label: t('files.manage.columns.views'), value: <Views file={file} /> },
                  {
                    label: t('files.manage.columns.expires'),
                    value: <Expiry value={file.expires_at} />,
                    className: 'truncate',
                  },
                  {
                    label: t('files.manage.columns.created'),
                    value: formatRelative(file.created_at, i18n.language),
                    className: 'break-words',
                  },
                ],
              }}
            />
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
      <FolderSharesSection />
      <UploadRequestsSection />
    </div>
  );
}
