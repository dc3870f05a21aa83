import { ALL_PERMISSIONS, permissionNames, type ApiKeyView } from '@clipnest/contract';
import { Copy, Ellipsis, KeyRound, Pencil, Plus, SearchX, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
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
import { ListSkeleton } from '../../components/ui/list-skeleton';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { SearchField } from '../../components/ui/search-field';
import { Skeleton } from '../../components/ui/skeleton';
import { SortHeader } from '../../components/ui/sort-header';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { Tooltip } from '../../components/ui/tooltip';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatDateTime, formatRelative, isPast } from '../../lib/format';
import { useApiKeys, useDeleteApiKey } from './api';
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

function Expiry({ value }: { value: string | null }) {
  const { t, i18n } = useTranslation();
  if (!value) return <span className="text-muted-foreground">{t('keys.neverExpires')}</span>;
  const expired = isPast(value);
  return (
    <span className="flex flex-col">
      <span className={expired ? 'text-destructive-soft-foreground' : undefined}>
        {formatDateTime(value, i18n.language)}
      </span>
      <span className="text-xs text-muted-foreground">{formatRelative(value, i18n.language)}</span>
    </span>
  );
}

function LastUsed({ value }: { value: string | null }) {
  const { t, i18n } = useTranslation();
  if (!value) return <span className="text-muted-foreground">{t('keys.neverUsed')}</span>;
  return (
    <Tooltip content={formatDateTime(value, i18n.language)}>
      <span tabIndex={0} className="rounded-sm">
        {formatRelative(value, i18n.language)}
      </span>
    </Tooltip>
  );
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

function RowActions({
  apiKey,
  onEdit,
  onDelete,
  onCopy,
}: {
  apiKey: ApiKeyView;
  onEdit: () => void;
  onDelete: () => void;
  onCopy: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center justify-end gap-0.5">
      <IconButton label={t('keys.edit', { name: apiKey.name })} size="icon-sm" onClick={onEdit}>
        <Pencil className="size-4" />
      </IconButton>
      <DropdownMenu>
        <Tooltip content={t('common.moreActions')}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`${t('common.moreActions')}: ${apiKey.name}`}>
              <Ellipsis className="size-4" />
            </Button>
          </DropdownMenuTrigger>
        </Tooltip>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={onEdit}>
            <Pencil />
            {t('common.edit')}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onCopy}>
            <Copy />
            {t('common.copy')}
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

function KeyCard({
  apiKey,
  onEdit,
  onDelete,
  onCopy,
}: {
  apiKey: ApiKeyView;
  onEdit: () => void;
  onDelete: () => void;
  onCopy: () => void;
}) {
  const { t } = useTranslation();
  return (
    <li className="rounded-xl border border-border bg-surface p-4 shadow-sm" data-testid="key-card">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate font-medium">{apiKey.name}</p>
          <MaskedKey apiKey={apiKey} onCopy={onCopy} />
        </div>
        <RowActions apiKey={apiKey} onEdit={onEdit} onDelete={onDelete} onCopy={onCopy} />
      </div>
      <div className="mt-2">
        <StatusBadges apiKey={apiKey} />
      </div>
      <div className="mt-3">
        <PermissionSummary mask={apiKey.permissions} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 border-t border-border pt-3 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">{t('keys.columns.expires')}</dt>
          <dd className="mt-0.5">
            <Expiry value={apiKey.expires_at} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('keys.columns.lastUsed')}</dt>
          <dd className="mt-0.5">
            <LastUsed value={apiKey.last_used} />
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="text-xs text-muted-foreground">{t('keys.columns.basicPath')}</dt>
          <dd className="mt-0.5 truncate font-mono text-xs">{apiKey.basic_path}</dd>
        </div>
      </dl>
    </li>
  );
}

/** Key management (spec §2, §3, §6): list, create, edit, delete and copy API keys. */
export default function KeyManagementPage() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  const remove = useDeleteApiKey();
  const copyKey = useCopyKey();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState>({ column: 'created', direction: 'desc' });
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<ApiKeyView | undefined>();
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const [created, setCreated] = useState<ApiKeyView | null>(null);

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

  const rowProps = (key: ApiKeyView) => ({
    apiKey: key,
    onEdit: () => openEdit(key),
    onDelete: () => setDeleting(key),
    onCopy: () => void copyKey(key),
  });

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('keys.title')} description={t('keys.description')}>
        <RefreshButton label={t('keys.refresh')} fetching={keys.isFetching} onRefresh={() => void keys.refetch()} />
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
            <>
              <div className="hidden lg:block">
                <Table>
                  <THead>
                    <tr className="border-b border-border">
                      <SortHeader field="name" sortedBy={sort.column} order={sort.direction} onSort={onSort}>
                        {t('keys.columns.name')}
                      </SortHeader>
                      <TH>{t('keys.columns.permissions')}</TH>
                      <TH>{t('keys.columns.basicPath')}</TH>
                      <SortHeader field="expires" sortedBy={sort.column} order={sort.direction} onSort={onSort}>
                        {t('keys.columns.expires')}
                      </SortHeader>
                      <SortHeader field="lastUsed" sortedBy={sort.column} order={sort.direction} onSort={onSort}>
                        {t('keys.columns.lastUsed')}
                      </SortHeader>
                      <TH>{t('keys.columns.status')}</TH>
                      <TH className="text-end">
                        <span className="sr-only">{t('keys.columns.actions')}</span>
                      </TH>
                    </tr>
                  </THead>
                  <TBody>
                    {visible.map((key) => {
                      const props = rowProps(key);
                      return (
                        <TR key={key.id} data-testid="key-row">
                          <TD className="max-w-60">
                            <p className="truncate font-medium">{key.name}</p>
                            <MaskedKey apiKey={key} onCopy={props.onCopy} />
                          </TD>
                          <TD className="min-w-44 max-w-72">
                            <PermissionSummary mask={key.permissions} />
                          </TD>
                          <TD className="max-w-40">
                            <code className="block truncate font-mono text-xs">{key.basic_path}</code>
                          </TD>
                          <TD className="whitespace-nowrap">
                            <Expiry value={key.expires_at} />
                          </TD>
                          <TD className="whitespace-nowrap">
                            <LastUsed value={key.last_used} />
                          </TD>
                          <TD>
                            <StatusBadges apiKey={key} />
                          </TD>
                          <TD className="w-px whitespace-nowrap ps-0">
                            <RowActions {...props} />
                          </TD>
                        </TR>
                      );
                    })}
                  </TBody>
                </Table>
              </div>
              <ul className="grid gap-3 sm:grid-cols-2 lg:hidden">
                {visible.map((key) => (
                  <KeyCard key={key.id} {...rowProps(key)} />
                ))}
              </ul>
            </>
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

      <Dialog open={created !== null} onOpenChange={(open) => !open && setCreated(null)}>
        <DialogContent
          title={t('keys.createdTitle')}
          description={t('keys.createdBody')}
          footer={<Button onClick={() => setCreated(null)}>{t('common.done')}</Button>}
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
