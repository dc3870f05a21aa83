import type { MountView, StorageType } from '@clipnest/contract';
import { FolderOpen, HardDrive, Pencil, Plus, Power, PowerOff, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { RowActions } from '../../components/ui/row-actions';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { storageConfigName } from '../../lib/storageConfigName';
import { explorerHref } from '../fs/paths';
import { useDeleteMount, useMounts, useSaveMount } from '../fs/mountsApi';
import { useStorageConfigs } from '../storage-config/api';
import { MountFormDialog } from './MountFormDialog';
// Registers the fs texts before anything here renders (they are not in the shell).

function MountRow({
  mount,
  configName,
  onEdit,
  onToggle,
  onDelete,
}: {
  mount: MountView;
  configName: string;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <li
      className="flex items-start gap-3 border-b border-border px-4 py-3 last:border-b-0"
      data-testid="mount-row"
      data-path={mount.path}
    >
      <div className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary-soft-foreground">
        <HardDrive className="size-5" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="truncate font-medium" title={mount.name}>
            {mount.name}
          </h2>
          <Badge tone={mount.is_active ? 'success' : 'neutral'} data-testid="mount-status">
            {mount.is_active ? t('fs.mounts.active') : t('fs.mounts.inactive')}
          </Badge>
        </div>
        <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm text-muted-foreground">
          <dt>{t('fs.mounts.fields.path')}</dt>
          <dd className="truncate font-mono text-xs leading-5 text-foreground">{mount.path}</dd>
          <dt>{t('fs.mounts.fields.storage')}</dt>
          <dd className="[overflow-wrap:anywhere]">
            {configName} · {t(`files.storage.types.${mount.storage_type as StorageType}`)}
          </dd>
          <dt>{t('fs.mounts.fields.sortOrder')}</dt>
          <dd className="tabular-nums">{mount.sort_order}</dd>
        </dl>
      </div>
      <RowActions
        name={mount.name}
        quick={[{ label: t('fs.mounts.editNamed', { name: mount.name }), icon: Pencil, onClick: onEdit }]}
        menu={[
          mount.is_active && { label: t('fs.mounts.open'), icon: FolderOpen, href: explorerHref(mount.path) },
          {
            label: mount.is_active ? t('fs.mounts.disable') : t('fs.mounts.enable'),
            icon: mount.is_active ? PowerOff : Power,
            onSelect: onToggle,
          },
          { label: t('common.edit'), icon: Pencil, onSelect: onEdit },
          { label: t('common.delete'), icon: Trash2, destructive: true, onSelect: onDelete },
        ]}
      />
    </li>
  );
}

/** Mounts (spec §5, §7 /api/mount/*): list, create, edit, enable/disable, delete. Admin only (access.ts). */
export default function MountManagementPage() {
  const { t } = useTranslation();
  const mounts = useMounts();
  const configs = useStorageConfigs();
  const save = useSaveMount();
  const remove = useDeleteMount();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<MountView | undefined>();
  const [deleting, setDeleting] = useState<MountView | null>(null);
  const configList = configs.data ?? [];
  const configName = (id: string) => {
    const config = configList.find((c) => c.id === id);
    return config ? storageConfigName(t, config) : id;
  };

  const report = (error: unknown) => {
    if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
  };
  const openCreate = () => {
    setEditing(undefined);
    setFormOpen(true);
  };

  async function toggle(mount: MountView) {
    try {
      await save.mutateAsync({ id: mount.id, input: { is_active: !mount.is_active } });
      toast.success(t(mount.is_active ? 'fs.mounts.disabled' : 'fs.mounts.enabled', { name: mount.name }));
    } catch (error) {
      report(error);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('fs.mounts.deleted', { name: deleting.name }));
    } catch (error) {
      report(error);
    }
    setDeleting(null);
  }

  const list = mounts.data ?? [];
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader title={t('admin.pages.mountManagement')} description={t('admin.pageBody.mountManagement')}>
        <RefreshButton
          label={t('common.refresh')}
          fetching={mounts.isFetching}
          onRefresh={() => void mounts.refetch()}
        />
        <Button onClick={openCreate} className="flex-1 sm:flex-none">
          <Plus className="size-4" aria-hidden="true" />
          {t('fs.mounts.create')}
        </Button>
      </PageHeader>
      {mounts.isPending ? (
        <div className="flex flex-col gap-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 w-full rounded-xl" />
          ))}
        </div>
      ) : mounts.isError ? (
        <LoadError
          title={t('errors.mount.loadFailed')}
          message={errorMessage(mounts.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void mounts.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={HardDrive}
          title={t('fs.mounts.emptyTitle')}
          description={t('fs.mounts.emptyBody')}
          action={
            <Button onClick={openCreate}>
              <Plus className="size-4" aria-hidden="true" />
              {t('fs.mounts.create')}
            </Button>
          }
        />
      ) : (
        <ul className="rounded-xl border border-border bg-surface shadow-sm">
          {list.map((mount) => (
            <MountRow
              key={mount.id}
              mount={mount}
              configName={configName(mount.storage_config_id)}
              onEdit={() => {
                setEditing(mount);
                setFormOpen(true);
              }}
              onToggle={() => void toggle(mount)}
              onDelete={() => setDeleting(mount)}
            />
          ))}
        </ul>
      )}
      <MountFormDialog open={formOpen} onOpenChange={setFormOpen} original={editing} configs={configList} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('fs.mounts.deleteTitle', { name: deleting?.name ?? '' })}
        description={t('fs.mounts.deleteBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
    </div>
  );
}
