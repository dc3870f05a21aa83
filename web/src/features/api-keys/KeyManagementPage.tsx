import { ALL_PERMISSIONS, permissionNames, type ApiKeyView } from '@clipnest/contract';
import { BookOpen, Copy, KeyRound, Pencil, Plug, Plus, SearchX, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
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
import { Skeleton } from '../../components/ui/skeleton';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatDateTime, formatRelative, isPast } from '../../lib/format';
import { useApiKeys, useDeleteApiKey } from './api';
import { IntegrationsDialog } from './IntegrationsDialog';
import { KeyFormDialog } from './KeyFormDialog';
import { filterKeys, sortKeys, type SortColumn, type SortState } from './keyList';

function useCopyKey() {
  const { t } = useTranslation();
  return async (key: ApiKeyView) => {
    const ok = await copyText(key.key);
    if (ok) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };
}

function PermissionSummary({ mask }: { mask: number }) {
  const { t } = useTranslation();
  if (mask === 0) return <span className="text-sm text-muted-foreground">{t('permissions.none')}</span>;
  if (mask === ALL_PERMISSIONS) return <Badge tone="primary">{t('permissions.all')}</Badge>;
  const names = permissionNames(mask);
  const shown = names.slice(0, 3);
  const rest = names.slice(3);
  return (
    <div className="flex flex-wrap gap-1">
      {shown.map((name) => (
        <Badge key={name}>{t(`permissions.${name}`)}</Badge>
      ))}
      {rest.length > 0 && (
        <Tooltip content={rest.map((name) => t(`permissions.${name}`)).join(', ')}>
          <button
            type="button"
            className="inline-flex h-6 items-center rounded-md border border-border bg-surface px-2 text-xs font-medium text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
          >
            +{rest.length}
          </button>
        </Tooltip>
      )}
    </div>
  );
}

function StatusBadges({ apiKey }: { apiKey: ApiKeyView }) {
  const { t } = useTranslation();
  const expired = isPast(apiKey.expires_at);
  return (
    <div className="flex flex-wrap gap-1">
      {expired ? (
        <Badge tone="danger">{t('keys.status.expired')}</Badge>
      ) : apiKey.enabled ? (
        <Badge tone="success">{t('keys.status.enabled')}</Badge>
      ) : (
        <Badge tone="neutral">{t('keys.status.disabled')}</Badge>
      )}
      {apiKey.is_guest === 1 && <Badge tone="warning">{t('keys.status.guest')}</Badge>}
    </div>
  );
}

function Expiry({ value, compact = false }: { value: string | null; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  if (!value) return <span className="text-muted-foreground">{t('keys.neverExpires')}</span>;
  const tone = isPast(value) ? 'text-destructive-soft-foreground' : undefined;
  if (compact) return <RelativeTime iso={value} className={tone} />;
  return (
    <span className="flex flex-col">
      <span className={tone}>{formatDateTime(value, i18n.language)}</span>
      <span className="text-xs text-muted-foreground">{formatRelative(value, i18n.language)}</span>
    </span>
  );
}

function LastUsed({ value }: { value: string | null }) {
  const { t } = useTranslation();
  if (!value) return <span className="text-muted-foreground">{t('keys.neverUsed')}</span>;
  return <RelativeTime iso={value} />;
}

function MaskedKey({ apiKey, onCopy }: { apiKey: ApiKeyView; onCopy: () => void }) {
  const { t } = useTranslation();
  return (
    <span className="flex min-w-0 items-center gap-1">
      <code className="truncate font-mono text-xs text-muted-foreground">{apiKey.key_masked}</code>
      <IconButton
        label={t('keys.copyKey', { name: apiKey.name })}
        size="icon-sm"
        className="size-8 text-muted-foreground pointer-coarse:size-10"
        onClick={onCopy}
      >
        <Copy className="size-3.5" />
      </IconButton>
    </span>
  );
}

function TableSkeleton() {
  return (
    <ListSkeleton
      rows={4}
      rowClassName="h-[69px]"
      row={
        <>
          <div className="w-48 space-y-2">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-3 w-24" />
          </div>
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-4 w-16" />
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 w-20" />
          <Skeleton className="ms-auto h-6 w-16" />
        </>
      }
      card={
        <>
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-3 w-28" />
          <Skeleton className="h-6 w-52" />
          <div className="grid grid-cols-2 gap-3">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </div>
        </>
      }
    />
  );
}

function KeyName({ apiKey, onCopy }: { apiKey: ApiKeyView; onCopy: () => void }) {
  return (
    <div className="min-w-0">
      <p className="truncate font-medium">{apiKey.name}</p>
      <MaskedKey apiKey={apiKey} onCopy={onCopy} />
    </div>
  );
}

/** The table columns; on phones the card shows the same facts. */
function useKeyColumns(onCopy: (key: ApiKeyView) => void): DataListColumn<ApiKeyView, SortColumn>[] {
  const { t } = useTranslation();
  return [
    {
      id: 'name',
      header: t('keys.columns.name'),
      sortField: 'name',
      className: 'max-w-52',
      cell: (key) => <KeyName apiKey={key} onCopy={() => onCopy(key)} />,
    },
    {
      id: 'permissions',
      header: t('keys.columns.permissions'),
      className: 'min-w-40 max-w-72',
      cell: (key) => <PermissionSummary mask={key.permissions} />,
    },
    {
      id: 'basicPath',
      header: t('keys.columns.basicPath'),
      className: 'max-w-40',
      cell: (key) => <code className="block truncate font-mono text-xs">{key.basic_path}</code>,
    },
    {
      id: 'expires',
      header: t('keys.columns.expires'),
      sortField: 'expires',
      className: 'whitespace-nowrap',
      cell: (key) => <Expiry value={key.expires_at} compact />,
    },
    {
      id: 'lastUsed',
      header: t('keys.columns.lastUsed'),
      sortField: 'lastUsed',
      className: 'whitespace-nowrap',
      cell: (key) => <LastUsed value={key.last_used} />,
    },
    { id: 'status', header: t('keys.columns.status'), cell: (key) => <StatusBadges apiKey={key} /> },
  ];
}

/** Key management (spec §2, §3, §6): list, create, edit, delete and copy API keys. */
export default function KeyManagementPage() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const remove = useDeleteApiKey();
  const copyKey = useCopyKey();
  const columns = useKeyColumns((key) => void copyKey(key));
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState>({ column: 'created', direction: 'desc' });
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<ApiKeyView | undefined>();
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const [created, setCreated] = useState<ApiKeyView | null>(null);
  const [integrating, setIntegrating] = useState<ApiKeyView | null>(null);

  const all = useMemo(() => keys.data ?? [], [keys.data]);
  const visible = useMemo(() => sortKeys(filterKeys(all, query), sort), [all, query, sort]);

  const openCreate = () => {
    setEditing(undefined);
    setFormOpen(true);
  };
  const openEdit = (key: ApiKeyView) => {
    setEditing(key);
    setFormOpen(true);
  };
  const onSort = (column: SortColumn) =>
    setSort((s) => ({ column, direction: s.column === column && s.direction === 'asc' ? 'desc' : 'asc' }));

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('keys.deleted', { name: deleting.name }));
      setDeleting(null);
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
      setDeleting(null);
    }
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('keys.title')} description={t('keys.description')}>
        <RefreshButton label={t('keys.refresh')} fetching={keys.isFetching} onRefresh={() => void keys.refetch()} />
        <Button variant="secondary" asChild>
          {/* A page of the server's own (not the app's router): it loads its own renderer under its own CSP. */}
          <a href="/api-docs" target="_blank" rel="noopener">
            <BookOpen className="size-4" aria-hidden="true" />
            {t('keys.apiReference')}
          </a>
        </Button>
        <Button onClick={openCreate} className="flex-1 sm:flex-none">
          <Plus className="size-4" aria-hidden="true" />
          {t('keys.create')}
        </Button>
      </PageHeader>

      {keys.isPending ? (
        <TableSkeleton />
      ) : keys.isError ? (
        <LoadError
          title={t('keys.loadFailed')}
          message={errorMessage(keys.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void keys.refetch()}
        />
      ) : all.length === 0 ? (
        <EmptyState
          icon={KeyRound}
          title={t('keys.emptyTitle')}
          description={t('keys.emptyBody')}
          action={
            <Button onClick={openCreate}>
              <Plus className="size-4" aria-hidden="true" />
              {t('keys.emptyAction')}
            </Button>
          }
        />
      ) : (
        <div className="flex flex-col gap-3">
          <div className="flex items-center gap-3">
            <SearchField
              value={query}
              onValueChange={setQuery}
              label={t('keys.searchPlaceholder')}
              className="max-w-sm"
            />
            <span className="ms-auto whitespace-nowrap text-sm text-muted-foreground">
              {t('keys.count', { count: visible.length })}
            </span>
          </div>

          {visible.length === 0 ? (
            <EmptyState icon={SearchX} title={t('keys.noMatch', { query })} />
          ) : (
            <DataList
              items={visible}
              getId={(key) => key.id}
              columns={columns}
              sort={{ field: sort.column, order: sort.direction, onSort }}
              rowTestId="key-row"
              cardTestId="key-card"
              actions={(key) => (
                <RowActions
                  name={key.name}
                  quick={[{ label: t('keys.edit', { name: key.name }), icon: Pencil, onClick: () => openEdit(key) }]}
                  menu={[
                    { label: t('common.edit'), icon: Pencil, onSelect: () => openEdit(key) },
                    { label: t('common.copy'), icon: Copy, onSelect: () => void copyKey(key) },
                    { label: t('keys.integrationsAction'), icon: Plug, onSelect: () => setIntegrating(key) },
                    { label: t('common.delete'), icon: Trash2, destructive: true, onSelect: () => setDeleting(key) },
                  ]}
                />
              )}
              card={{
                title: (key) => <KeyName apiKey={key} onCopy={() => void copyKey(key)} />,
                body: (key) => (
                  <>
                    <StatusBadges apiKey={key} />
                    <PermissionSummary mask={key.permissions} />
                  </>
                ),
                facts: (key) => [
                  { label: t('keys.columns.expires'), value: <Expiry value={key.expires_at} /> },
                  { label: t('keys.columns.lastUsed'), value: <LastUsed value={key.last_used} /> },
                  {
                    label: t('keys.columns.basicPath'),
                    value: key.basic_path,
                    wide: true,
                    className: 'truncate font-mono text-xs',
                  },
                ],
              }}
            />
          )}
        </div>
      )}

      <KeyFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        original={editing}
        onCreated={(key) => {
          setFormOpen(false);
          setCreated(key);
        }}
      />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('keys.deleteTitle', { name: deleting?.name ?? '' })}
        description={t('keys.deleteBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />

      <IntegrationsDialog apiKey={integrating} onClose={() => setIntegrating(null)} />

      <Dialog open={created !== null} onOpenChange={(open) => !open && setCreated(null)}>
        <DialogContent
          title={t('keys.createdTitle')}
          description={t('keys.createdBody')}
          footer={
            <>
              <Button
                variant="secondary"
                onClick={() => {
                  setIntegrating(created);
                  setCreated(null);
                }}
              >
                {t('keys.integrationsAction')}
              </Button>
              <Button onClick={() => setCreated(null)}>{t('common.done')}</Button>
            </>
          }
        >
          {created && (
            <div className="flex items-center gap-2 rounded-lg border border-border bg-surface-muted p-2 ps-3">
              <code className="min-w-0 flex-1 break-all font-mono text-sm" data-testid="created-key">
                {created.key}
              </code>
              <IconButton
                label={t('keys.copyKey', { name: created.name })}
                variant="secondary"
                onClick={() => void copyKey(created)}
              >
                <Copy className="size-4" />
              </IconButton>
            </div>
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
