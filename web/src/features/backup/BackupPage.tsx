import {
  BACKUP_MODULES,
  RESTORE_MODES,
  type BackupModule,
  type RestoreMode,
  type RestorePreview,
  type RestoreResult,
} from '@clipnest/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Download, RotateCcw, ShieldAlert } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { SettingsSection } from '../../components/settings';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field, FieldMessage } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { errorMessage, isApiError } from '../../lib/api';
import { ErrorDetails, serverDetail } from '../../components/ui/error-details';
import { logout } from '../../lib/auth';
import { formatDateTime, formatNumber } from '../../lib/format';
import { CloudpasteImport } from './CloudpasteImport';
import { JsonFilePicker } from './JsonFilePicker';
import { ScheduleCard } from './ScheduleCard';
import { BACKUP_MODULES_QUERY_KEY, downloadBackup, previewRestore, runRestore, useBackupModules } from './api';

/** Larger files are refused before reading (the server takes at most 512 MB). */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

function CreateBackup() {
  const { t, i18n } = useTranslation();
  const modules = useBackupModules();
  const [kind, setKind] = useState<'full' | 'modules'>('full');
  const [selected, setSelected] = useState<BackupModule[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const rowsOf = (name: BackupModule) =>
    modules.data?.find((m) => m.name === name)?.tables.reduce((sum, table) => sum + table.rows, 0);

  async function onDownload() {
    if (kind === 'modules' && selected.length === 0) {
      setError(t('adminPanel.backup.pickModule'));
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const name = await downloadBackup(kind === 'full' ? 'full' : selected);
      toast.success(t('adminPanel.backup.downloaded', { name }));
    } catch (err) {
      if (!(isApiError(err) && err.loggedOut)) toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <SettingsSection title={t('adminPanel.backup.createTitle')} description={t('adminPanel.backup.createBody')}>
      <ChoiceChips
        label={t('adminPanel.backup.createTitle')}
        value={kind}
        onChange={(value) => {
          setKind(value);
          setError(undefined);
        }}
        options={[
          { value: 'full', label: t('adminPanel.backup.full') },
          { value: 'modules', label: t('adminPanel.backup.chooseModules') },
        ]}
      />
      {kind === 'modules' && (
        <fieldset className="flex flex-col gap-1" aria-describedby={error ? 'backup-modules-error' : undefined}>
          <legend className="mb-2 text-sm font-medium">{t('adminPanel.backup.modulesLegend')}</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {BACKUP_MODULES.map((name) => {
              const rows = rowsOf(name);
              const id = `backup-module-${name}`;
              return (
                <label
                  key={name}
                  htmlFor={id}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 hover:bg-surface-hover"
                >
                  <Checkbox
                    id={id}
                    checked={selected.includes(name)}
                    onCheckedChange={(checked) => {
                      setError(undefined);
                      setSelected((old) => (checked === true ? [...old, name] : old.filter((m) => m !== name)));
                    }}
                  />
                  <span className="flex-1 text-sm">{t(`adminPanel.backup.modules.${name}`)}</span>
                  {modules.isPending ? (
                    <Skeleton className="h-4 w-10" />
                  ) : rows !== undefined ? (
                    <span className="text-xs tabular-nums text-muted-foreground">
                      {t('adminPanel.backup.rows', {
                        count: rows,
                        formatted: formatNumber(rows, i18n.language),
                      })}
                    </span>
                  ) : null}
                </label>
              );
            })}
          </div>
          <FieldMessage id="backup-modules" error={error} />
        </fieldset>
      )}
      <p className="text-xs text-muted-foreground">{t('adminPanel.backup.secretsNote')}</p>
      <div className="flex justify-end">
        <Button onClick={() => void onDownload()} loading={busy}>
          {!busy && <Download className="size-4" aria-hidden="true" />}
          {t('adminPanel.backup.download')}
        </Button>
      </div>
    </SettingsSection>
  );
}

function PreviewTable({ preview, tableModule }: { preview: RestorePreview; tableModule: (table: string) => string }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const effect = (row: RestorePreview['tables'][number]) =>
    preview.mode === 'overwrite'
      ? t('adminPanel.backup.preview.overwriteEffect', { removed: n(row.existing), added: n(row.incoming) })
      : t('adminPanel.backup.preview.mergeEffect', {
          added: n(row.incoming - row.conflicts),
          skipped: n(row.conflicts),
        });
  return (
    <>
      <div className="hidden sm:block">
        <Table>
          <THead>
            <tr className="border-b border-border">
              <TH>{t('adminPanel.backup.preview.table')}</TH>
              <TH className="text-end">{t('adminPanel.backup.preview.incoming')}</TH>
              <TH className="text-end">{t('adminPanel.backup.preview.existing')}</TH>
              <TH className="text-end">{t('adminPanel.backup.preview.conflicts')}</TH>
              <TH>{t('adminPanel.backup.preview.effect')}</TH>
            </tr>
          </THead>
          <TBody>
            {preview.tables.map((row) => (
              <TR key={row.table} data-testid="preview-row">
                <TD>
                  <p className="font-medium">{tableModule(row.table)}</p>
                  <code className="text-xs text-muted-foreground">{row.table}</code>
                </TD>
                <TD className="text-end tabular-nums">{n(row.incoming)}</TD>
                <TD className="text-end tabular-nums">{n(row.existing)}</TD>
                <TD className="text-end tabular-nums">{n(row.conflicts)}</TD>
                <TD className="text-sm">{effect(row)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </div>
      <ul className="grid gap-2 sm:hidden">
        {preview.tables.map((row) => (
          <li key={row.table} className="rounded-lg border border-border p-3">
            <p className="flex items-baseline justify-between gap-2">
              <span className="font-medium">{tableModule(row.table)}</span>
              <code className="text-xs text-muted-foreground">{row.table}</code>
            </p>
            <p className="mt-1 text-sm">{effect(row)}</p>
            <dl className="mt-2 grid grid-cols-3 gap-2 text-xs text-muted-foreground">
              <div>
                <dt>{t('adminPanel.backup.preview.incoming')}</dt>
                <dd className="tabular-nums text-foreground">{n(row.incoming)}</dd>
              </div>
              <div>
                <dt>{t('adminPanel.backup.preview.existing')}</dt>
                <dd className="tabular-nums text-foreground">{n(row.existing)}</dd>
              </div>
              <div>
                <dt>{t('adminPanel.backup.preview.conflicts')}</dt>
                <dd className="tabular-nums text-foreground">{n(row.conflicts)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function RestoreBackup() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const modules = useBackupModules();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ id: number; name: string; size: number; text: string } | null>(null);
  const fileCounter = useRef(0);
  const [fileError, setFileError] = useState<string | undefined>();
  const [mode, setMode] = useState<RestoreMode>('merge');
  const [sourceKey, setSourceKey] = useState('');
  const [appliedKey, setAppliedKey] = useState('');
  const [restoreError, setRestoreError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const [result, setResult] = useState<RestoreResult | null>(null);

  const tableModule = useMemo(() => {
    const map = new Map<string, string>();
    for (const module of modules.data ?? []) {
      for (const table of module.tables) map.set(table.name, t(`adminPanel.backup.modules.${module.name}`));
    }
    return (table: string) => map.get(table) ?? table;
  }, [modules.data, t]);

  // Every change of file, mode or key asks the server again what the restore would do.
  const check = useQuery({
    queryKey: ['admin', 'backup', 'preview', file?.id ?? 0, mode, appliedKey],
    queryFn: () => previewRestore(file?.text ?? '', mode, appliedKey),
    enabled: file !== null,
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    meta: { silent: true },
  });
  const preview = file ? (check.data ?? null) : null;
  const checking = file !== null && check.isFetching;
  const checkError = file && check.isError && !(isApiError(check.error) && check.error.loggedOut) ? check.error : null;
  const refusal = restoreError ?? checkError;

  async function pick(chosen: File | undefined) {
    setResult(null);
    setRestoreError(null);
    setSourceKey('');
    setAppliedKey('');
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setFile(null);
      setFileError(t('adminPanel.backup.fileTooLarge'));
      return;
    }
    const text = await chosen.text();
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    } catch {
      setFile(null);
      setFileError(t('adminPanel.backup.notJson'));
      return;
    }
    setFileError(undefined);
    fileCounter.current += 1;
    setFile({ id: fileCounter.current, name: chosen.name, size: chosen.size, text });
  }

  async function restore() {
    if (!file || !preview) return;
    setRestoring(true);
    try {
      const done = await runRestore(file.text, mode, appliedKey);
      setConfirming(false);
      setResult(done);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      await client.invalidateQueries({ queryKey: BACKUP_MODULES_QUERY_KEY });
      void client.invalidateQueries({ queryKey: ['admin'] });
      toast.success(t('adminPanel.backup.restored'));
      if (done.mode === 'overwrite' && done.modules.includes('account_management')) {
        logout('user', t('adminPanel.backup.reloginAfterAccount'));
      }
    } catch (error) {
      setConfirming(false);
      if (!(isApiError(error) && error.loggedOut)) {
        setRestoreError(error);
        toast.error(errorMessage(error));
      }
    } finally {
      setRestoring(false);
    }
  }

  return (
    <SettingsSection title={t('adminPanel.backup.restoreTitle')} description={t('adminPanel.backup.restoreBody')}>
      <JsonFilePicker
        label={t('adminPanel.backup.file')}
        hint={t('adminPanel.backup.dropHint')}
        file={file}
        error={fileError}
        onPick={(chosen) => void pick(chosen)}
        inputRef={inputRef}
        nameTestId="restore-file-name"
        droppable
      />

      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">{t('adminPanel.backup.mode')}</span>
        <ChoiceChips
          label={t('adminPanel.backup.mode')}
          value={mode}
          onChange={(next) => {
            setMode(next);
            setRestoreError(null);
          }}
          options={RESTORE_MODES.map((m) => ({ value: m, label: t(`adminPanel.backup.modes.${m}`) }))}
        />
        <p className="text-xs text-muted-foreground">{t(`adminPanel.backup.modeHelp.${mode}`)}</p>
      </div>

      {checking && (
        <div className="space-y-2" aria-busy="true">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-24 w-full" />
        </div>
      )}

      {refusal != null && !checking && (
        <Alert tone="danger" title={t('adminPanel.backup.refused')}>
          <p data-testid="restore-refusal">{errorMessage(refusal)}</p>
          <p className="mt-1">{t('adminPanel.backup.nothingChanged')}</p>
          <ErrorDetails detail={serverDetail(refusal)} className="mt-1" />
        </Alert>
      )}

      {preview && !checking && (
        <div className="flex flex-col gap-4" data-testid="restore-preview">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{t('adminPanel.backup.preview.title')}</span>
            <Badge>
              {t('adminPanel.backup.preview.madeAt', { date: formatDateTime(preview.created_at, i18n.language) })}
            </Badge>
            <Badge>v{preview.app_version}</Badge>
            {preview.modules.map((m) => (
              <Badge key={m} tone="primary">
                {t(`adminPanel.backup.modules.${m}`)}
              </Badge>
            ))}
          </div>
          {preview.tables.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('adminPanel.backup.preview.noTables')}</p>
          ) : (
            <PreviewTable preview={preview} tableModule={tableModule} />
          )}
          {!preview.encryption_key_matches && (
            <div className="flex flex-col gap-3 rounded-lg border border-warning-border bg-warning-soft p-3 text-warning-soft-foreground">
              <p className="flex gap-2 text-sm">
                <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {t('adminPanel.backup.keyMismatch')}
              </p>
              <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
                <Field id="restore-source-key" label={t('adminPanel.backup.sourceKey')} className="flex-1">
                  <Input
                    id="restore-source-key"
                    type="password"
                    autoComplete="off"
                    value={sourceKey}
                    onChange={(event) => setSourceKey(event.target.value)}
                  />
                </Field>
                <Button
                  variant="secondary"
                  onClick={() => {
                    setAppliedKey(sourceKey);
                    setRestoreError(null);
                  }}
                  disabled={sourceKey === appliedKey}
                >
                  {t('adminPanel.backup.applyKey')}
                </Button>
              </div>
            </div>
          )}
          {preview.warnings.length > 0 && (
            <Alert tone="warning" title={t('adminPanel.backup.warnings')}>
              <ul className="list-disc ps-4">
                {preview.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Alert>
          )}
          <div className="flex justify-end">
            <Button
              variant={mode === 'overwrite' ? 'destructive' : 'primary'}
              onClick={() => setConfirming(true)}
              disabled={preview.tables.length === 0}
            >
              <RotateCcw className="size-4" aria-hidden="true" />
              {t('adminPanel.backup.restore')}
            </Button>
          </div>
        </div>
      )}

      {result && (
        <Alert tone="info" title={t('adminPanel.backup.restoredTitle')}>
          <ul className="mt-1" data-testid="restore-result">
            {Object.entries(result.restored).map(([table, count]) => (
              <li key={table} className="flex items-center gap-2">
                <CircleCheck className="size-3.5" aria-hidden="true" />
                {t('adminPanel.backup.restoredRows', { table: tableModule(table), count })}
              </li>
            ))}
          </ul>
        </Alert>
      )}

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t(mode === 'overwrite' ? 'adminPanel.backup.confirmOverwrite' : 'adminPanel.backup.confirmMerge', {
          name: file?.name ?? '',
        })}
        description={t(
          mode === 'overwrite' ? 'adminPanel.backup.confirmOverwriteBody' : 'adminPanel.backup.confirmMergeBody',
        )}
        confirmLabel={t('adminPanel.backup.restore')}
        busy={restoring}
        onConfirm={() => void restore()}
      />
    </SettingsSection>
  );
}

/** Backup and restore (spec §3, §5): download all or chosen modules; restore with a preview. */
export default function BackupPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader title={t('admin.pages.backup')} description={t('admin.pageBody.backup')} />
      <CreateBackup />
      <RestoreBackup />
      <CloudpasteImport />
      <ScheduleCard />
    </div>
  );
}
