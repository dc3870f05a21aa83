import { STORAGE_TEST_STEPS } from '@clipnest/contract';
import type {
  StorageConfigInUse,
  StorageConfigTestResult,
  StorageConfigView,
  StorageCorsResult,
} from '@clipnest/contract';
import {
  CircleCheck,
  CircleDashed,
  CircleX,
  TriangleAlert,
  Cloud,
  Database,
  FlaskConical,
  HardDrive,
  Pencil,
  Plus,
  Star,
  Trash2,
  Network,
  Server,
} from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { ErrorDetails, serverDetail } from '../../components/ui/error-details';
import { LoadError } from '../../components/ui/load-error';
import { PageHeader, RefreshButton } from '../../components/ui/page-header';
import { Progress } from '../../components/ui/progress';
import { RowActions } from '../../components/ui/row-actions';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { FtpDetails } from './FtpDetails';
import { formatBytes } from '../../lib/format';
import { storageConfigName } from '../../lib/storageConfigName';
import {
  STORAGE_CONFIGS_QUERY_KEY,
  testStorageConfig,
  useDeleteStorageConfig,
  useSetDefaultStorageConfig,
  useStorageConfigs,
} from './api';
import { SftpCardDetails } from './SftpCardDetails';
import { StorageConfigFormDialog } from './StorageConfigFormDialog';

function inUseCounts(data: unknown): data is StorageConfigInUse {
  const d = data as Partial<StorageConfigInUse> | null | undefined;
  return typeof d?.files === 'number' && typeof d.mounts === 'number' && d.files + d.mounts > 0;
}

/** "1 file share and 1 mount (/s3)", from the counts of the 409's `data`. */
function describeUses(data: StorageConfigInUse, t: ReturnType<typeof useTranslation>['t']): string {
  const paths = Array.isArray(data.mount_paths) ? data.mount_paths : [];
  const parts = [
    data.files > 0 ? t('files.storage.inUseFiles', { count: data.files }) : '',
    data.mounts > 0
      ? t('files.storage.inUseMounts', {
          count: data.mounts,
          paths: paths.join(', ') + (data.mounts > paths.length ? ', …' : ''),
        })
      : '',
  ].filter(Boolean);
  return parts.length === 2 ? t('files.storage.inUseAnd', { first: parts[0], second: parts[1] }) : (parts[0] ?? '');
}

type TestState =
  | { status: 'running' }
  | { status: 'done'; result: StorageConfigTestResult }
  | { status: 'error'; message: string; detail?: string };

/**
 * Can browsers upload straight to the bucket from the origin the admin uses? Advice beside the steps (it does
 * not change `success`), chosen by `problem`; the server's sentence is a detail to expand.
 */
function CorsStep({ cors }: { cors: StorageCorsResult }) {
  const { t } = useTranslation();
  const advice = cors.success
    ? t('files.storage.test.cors.ok', { origin: cors.origin })
    : t(`files.storage.test.cors.${cors.problem ?? 'unreachable'}`, { origin: cors.origin });
  return (
    <li
      className={cn(
        'flex items-start gap-2 text-sm',
        cors.success
          ? 'border-t border-current/15 pt-2'
          : 'mt-1 rounded-md border border-warning-border bg-warning-soft px-2 py-1.5 text-warning-soft-foreground',
      )}
      data-testid="storage-test-cors"
      data-success={cors.success}
    >
      {cors.success ? (
        <CircleCheck className="mt-0.5 size-4 shrink-0" aria-label={t('files.storage.test.ok')} />
      ) : (
        <TriangleAlert
          className="mt-0.5 size-4 shrink-0 text-warning-soft-foreground"
          aria-label={t('files.storage.test.error')}
        />
      )}
      <span className="min-w-0 flex-1">
        <span className="font-medium">{t('files.storage.test.cors.title')}</span>
        <span className="block break-words text-xs opacity-90">{advice}</span>
        {!cors.success && <span className="block text-xs opacity-75">{t('files.storage.test.cors.advisory')}</span>}
        {cors.message && (
          <details className="text-xs opacity-90">
            <summary className="cursor-pointer select-none">{t('files.storage.test.cors.details')}</summary>
            <span className="block break-words font-mono">{cors.message}</span>
          </details>
        )}
      </span>
      <span className="shrink-0 font-mono text-xs tabular-nums">{cors.latency_ms} ms</span>
    </li>
  );
}

function TestResult({ state }: { state: TestState }) {
  const { t } = useTranslation();
  if (state.status === 'running') {
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <p className="text-sm text-muted-foreground">{t('files.storage.test.running')}</p>
        <Progress value={null} label={t('files.storage.test.running')} />
      </div>
    );
  }
  if (state.status === 'error')
    return (
      <Alert tone="danger" title={t('files.storage.test.failed')}>
        {state.message}
        <ErrorDetails detail={state.detail} className="mt-1" />
      </Alert>
    );
  const { result } = state;
  return (
    <div
      className={cn(
        'rounded-lg border px-3 py-2.5',
        result.success
          ? 'border-transparent bg-success-soft text-success-soft-foreground'
          : 'border-transparent bg-destructive-soft text-destructive-soft-foreground',
      )}
      role="status"
      data-testid="storage-test-result"
      data-success={result.success}
    >
      <p className="text-sm font-medium">
        {result.success
          ? t('files.storage.test.passed', { ms: result.total_ms })
          : t('files.storage.test.failedSteps', { ms: result.total_ms })}
      </p>
      <ol className="mt-2 flex flex-col gap-1">
        {result.steps.map((step) => (
          <li key={step.step} className="flex items-start gap-2 text-sm" data-testid="storage-test-step">
            {step.success ? (
              <CircleCheck className="mt-0.5 size-4 shrink-0" aria-label={t('files.storage.test.ok')} />
            ) : (
              <CircleX className="mt-0.5 size-4 shrink-0" aria-label={t('files.storage.test.error')} />
            )}
            <span className="min-w-0 flex-1">
              <span className="font-medium">{t(`files.storage.test.steps.${step.step}`)}</span>
              <span className="block text-xs opacity-90">
                {step.success ? t('files.storage.test.ok') : t('files.storage.test.error')}
              </span>
              {/* The server's sentence ("wrote 57 bytes to …", a driver error) is English: a detail to expand. */}
              <ErrorDetails detail={step.message} className="text-current opacity-90" />
            </span>
            <span className="shrink-0 font-mono text-xs tabular-nums">{step.latency_ms} ms</span>
          </li>
        ))}
        {STORAGE_TEST_STEPS.filter((name) => !result.steps.some((step) => step.step === name)).map((name) => (
          // A step after a failure does not run: named, so the admin sees what was not tried.
          <li
            key={name}
            className="flex items-start gap-2 text-sm opacity-70"
            data-testid="storage-test-step"
            data-skipped="true"
          >
            <CircleDashed className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span className="min-w-0 flex-1">
              <span className="font-medium">{t(`files.storage.test.steps.${name}`)}</span>
              <span className="block text-xs opacity-90">{t('files.storage.test.skipped')}</span>
            </span>
          </li>
        ))}
        {result.cors && <CorsStep cors={result.cors} />}
      </ol>
    </div>
  );
}

function Usage({ config }: { config: StorageConfigView }) {
  const { t, i18n } = useTranslation();
  const used = formatBytes(config.used_bytes, i18n.language);
  const scope = (
    <p className="text-xs text-muted-foreground" data-testid="storage-used-scope">
      {t(`files.storage.usedScope.${config.used_scope === 'storage' ? 'storage' : 'shares'}`)}
    </p>
  );
  if (config.total_capacity === null) {
    return (
      <div className="flex flex-col gap-0.5">
        <p className="text-xs text-muted-foreground" data-testid="storage-used">
          {t('files.storage.usedUnlimited', { used })}
        </p>
        {scope}
      </div>
    );
  }
  const pct = config.total_capacity > 0 ? (config.used_bytes / config.total_capacity) * 100 : 100;
  return (
    <div className="flex flex-col gap-1.5">
      <Progress
        value={pct}
        tone={pct >= 90 ? 'danger' : 'primary'}
        label={t('files.storage.usageLabel', { name: storageConfigName(t, config) })}
      />
      <p className="text-xs tabular-nums text-muted-foreground" data-testid="storage-used">
        {t('files.storage.used', { used, total: formatBytes(config.total_capacity, i18n.language) })}
      </p>
      {scope}
    </div>
  );
}

function ConfigCard({
  config,
  test,
  onTest,
  onEdit,
  onDelete,
  onSetDefault,
  settingDefault,
}: {
  config: StorageConfigView;
  test: TestState | undefined;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onSetDefault: () => void;
  settingDefault: boolean;
}) {
  const { t } = useTranslation();
  const local = config.storage_type === 'local';
  const webdav = config.storage_type === 'webdav';
  const sftp = config.storage_type === 'sftp';
  const rclone = config.storage_type === 'rclone';
  return (
    <li
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4 shadow-sm"
      data-testid="storage-card"
    >
      <div className="flex items-start gap-3">
        <div className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary-soft-foreground">
          {local ? (
            <HardDrive className="size-5" aria-hidden="true" />
          ) : webdav || rclone || config.storage_type === 'ftp' ? (
            <Network className="size-5" aria-hidden="true" />
          ) : sftp ? (
            <Server className="size-5" aria-hidden="true" />
          ) : (
            <Cloud className="size-5" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-medium" title={storageConfigName(t, config)}>
            {storageConfigName(t, config)}
          </h2>
          <div className="mt-1 flex flex-wrap gap-1">
            {config.is_default && (
              <Badge tone="primary">
                <Star aria-hidden="true" />
                {t('files.storage.default')}
              </Badge>
            )}
            <Badge>
              {local
                ? t('files.storage.local')
                : config.storage_type === 's3'
                  ? t(`files.storage.providers.${config.provider ?? 'other'}`)
                  : t(`files.storage.types.${config.storage_type}`)}
            </Badge>
            {config.is_builtin && <Badge>{t('files.storage.builtin')}</Badge>}
          </div>
        </div>
        <RowActions
          name={storageConfigName(t, config)}
          quick={[
            {
              label: t('files.storage.editNamed', { name: storageConfigName(t, config) }),
              icon: Pencil,
              onClick: onEdit,
            },
          ]}
          menu={[
            { label: t('files.storage.test.action'), icon: FlaskConical, onSelect: onTest },
            { label: t('files.storage.setDefault'), icon: Star, onSelect: onSetDefault, disabled: config.is_default },
            { label: t('common.edit'), icon: Pencil, onSelect: onEdit },
            !config.is_builtin && { label: t('common.delete'), icon: Trash2, destructive: true, onSelect: onDelete },
          ]}
        />
      </div>

      {local ? (
        config.is_builtin || !config.root_path ? (
          <p className="text-sm text-muted-foreground">{t('files.storage.localBody')}</p>
        ) : (
          <p className="text-sm break-all text-muted-foreground">
            {t('files.storage.localRootBody', { path: config.root_path })}
          </p>
        )
      ) : config.storage_type === 'ftp' ? (
        <FtpDetails config={config} />
      ) : sftp ? (
        <SftpCardDetails config={config} />
      ) : rclone ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-muted-foreground">{t('files.storage.rclone.remote')}</dt>
          <dd className="truncate font-mono text-xs leading-5">
            {config.rclone_remote ? `[${config.rclone_remote}]` : '—'}
          </dd>
          <dt className="text-muted-foreground">{t('files.storage.rclone.backend')}</dt>
          <dd className="truncate font-mono text-xs leading-5">{config.rclone_type || '—'}</dd>
          {config.default_folder && (
            <>
              <dt className="text-muted-foreground">{t('files.storage.fields.defaultFolder')}</dt>
              <dd className="truncate font-mono text-xs leading-5">{config.default_folder}</dd>
            </>
          )}
        </dl>
      ) : webdav ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-muted-foreground">{t('files.storage.fields.endpointUrl')}</dt>
          <dd className="truncate font-mono text-xs leading-5" title={config.endpoint_url}>
            {config.endpoint_url || '—'}
          </dd>
          <dt className="text-muted-foreground">{t('files.storage.fields.username')}</dt>
          <dd className="truncate font-mono text-xs leading-5">
            {config.username || '—'} · {config.has_secret ? '••••' : '—'}
          </dd>
          {config.default_folder && (
            <>
              <dt className="text-muted-foreground">{t('files.storage.fields.defaultFolder')}</dt>
              <dd className="truncate font-mono text-xs leading-5">{config.default_folder}</dd>
            </>
          )}
        </dl>
      ) : (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-muted-foreground">{t('files.storage.fields.endpoint')}</dt>
          <dd className="truncate font-mono text-xs leading-5" title={config.endpoint}>
            {config.endpoint || '—'}
          </dd>
          <dt className="text-muted-foreground">{t('files.storage.fields.bucket')}</dt>
          <dd className="truncate font-mono text-xs leading-5">
            {config.bucket}
            {config.default_folder ? `/${config.default_folder}` : ''}
          </dd>
          <dt className="text-muted-foreground">{t('files.storage.fields.region')}</dt>
          <dd className="truncate font-mono text-xs leading-5">{config.region || '—'}</dd>
          <dt className="text-muted-foreground">{t('files.storage.fields.credentials')}</dt>
          <dd className="truncate font-mono text-xs leading-5">
            {config.access_key_id} · {config.secret_access_key_masked || '—'}
          </dd>
        </dl>
      )}

      <Usage config={config} />

      {test && <TestResult state={test} />}

      <div className="mt-auto flex flex-wrap gap-2 border-t border-border pt-3">
        <Button variant="secondary" size="sm" onClick={onTest} loading={test?.status === 'running'}>
          <FlaskConical className="size-4" aria-hidden="true" />
          {t('files.storage.test.action')}
        </Button>
        {!config.is_default && (
          <Button variant="ghost" size="sm" onClick={onSetDefault} loading={settingDefault}>
            <Star className="size-4" aria-hidden="true" />
            {t('files.storage.setDefault')}
          </Button>
        )}
      </div>
    </li>
  );
}

function CardsSkeleton() {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {Array.from({ length: 2 }, (_, i) => (
        <li key={i} className="space-y-4 rounded-xl border border-border bg-surface p-4">
          <div className="flex gap-3">
            <Skeleton className="size-10 rounded-lg" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-5 w-24" />
            </div>
          </div>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-2 w-full" />
        </li>
      ))}
    </ul>
  );
}

/** Storage configs (spec §7 /api/s3-configs): list, create, edit, delete, test, set default. */
export default function StorageConfigPage() {
  const { t } = useTranslation();
  const configs = useStorageConfigs();
  const remove = useDeleteStorageConfig();
  const setDefault = useSetDefaultStorageConfig();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<StorageConfigView | undefined>();
  const [deleting, setDeleting] = useState<StorageConfigView | null>(null);
  const [tests, setTests] = useState<Record<string, TestState>>({});

  const openCreate = () => {
    setEditing(undefined);
    setFormOpen(true);
  };

  const queryClient = useQueryClient();
  async function runTest(config: StorageConfigView) {
    setTests((s) => ({ ...s, [config.id]: { status: 'running' } }));
    try {
      const result = await testStorageConfig(config.id);
      setTests((s) => ({ ...s, [config.id]: { status: 'done', result } }));
      // A successful test may have pinned an sftp host key: show it.
      if (config.storage_type === 'sftp') void queryClient.invalidateQueries({ queryKey: STORAGE_CONFIGS_QUERY_KEY });
    } catch (error) {
      setTests((s) => ({
        ...s,
        [config.id]: { status: 'error', message: errorMessage(error), detail: serverDetail(error) },
      }));
    }
  }

  async function makeDefault(config: StorageConfigView) {
    try {
      await setDefault.mutateAsync(config.id);
      toast.success(t('files.storage.defaultSet', { name: storageConfigName(t, config) }));
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('files.storage.deleted', { name: deleting.name }));
    } catch (error) {
      if (isApiError(error) && error.kind === 'conflict' && inUseCounts(error.data)) {
        toast.error(t('files.storage.inUse', { name: deleting.name, uses: describeUses(error.data, t) }));
      } else if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
    setDeleting(null);
  }

  const list = configs.data ?? [];
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('admin.pages.storageConfig')} description={t('files.storage.description')}>
        <RefreshButton
          label={t('common.refresh')}
          fetching={configs.isFetching}
          onRefresh={() => void configs.refetch()}
        />
        <Button onClick={openCreate} className="flex-1 sm:flex-none">
          <Plus className="size-4" aria-hidden="true" />
          {t('files.storage.create')}
        </Button>
      </PageHeader>

      {configs.isPending ? (
        <CardsSkeleton />
      ) : configs.isError ? (
        <LoadError
          title={t('files.storage.loadFailed')}
          message={errorMessage(configs.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void configs.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={Database}
          title={t('files.storage.emptyTitle')}
          description={t('files.storage.emptyBody')}
          action={
            <Button onClick={openCreate}>
              <Plus className="size-4" aria-hidden="true" />
              {t('files.storage.create')}
            </Button>
          }
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {list.map((config) => (
            <ConfigCard
              key={config.id}
              config={config}
              test={tests[config.id]}
              onTest={() => void runTest(config)}
              onEdit={() => {
                setEditing(config);
                setFormOpen(true);
              }}
              onDelete={() => setDeleting(config)}
              onSetDefault={() => void makeDefault(config)}
              settingDefault={setDefault.isPending && setDefault.variables === config.id}
            />
          ))}
        </ul>
      )}

      <StorageConfigFormDialog open={formOpen} onOpenChange={setFormOpen} original={editing} />

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('files.storage.deleteTitle', { name: deleting?.name ?? '' })}
        description={t('files.storage.deleteBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
      />
    </div>
  );
}
