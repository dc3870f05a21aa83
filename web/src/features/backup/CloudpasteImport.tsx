import {
  CLOUDPASTE_CONFLICT_MODES,
  CLOUDPASTE_IMPORT_KINDS,
  type CloudpasteConflictMode,
  type CloudpasteImportKind,
  type CloudpasteImportReport,
} from '@clipnest/contract';
import { useQueryClient } from '@tanstack/react-query';
import { PackageOpen, RefreshCw } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { SettingsSection } from '../../components/settings';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { errorMessage, isApiError } from '../../lib/api';
import { ErrorDetails, serverDetail } from '../../components/ui/error-details';
import { formatNumber } from '../../lib/format';
import { importCloudpaste } from './api';
import { JsonFilePicker } from './JsonFilePicker';

/** CloudPaste backups up to 100 MB are imported (the server reads at most 110 MB). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

function ReportTable({ report, done }: { report: CloudpasteImportReport; done: boolean }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const kind = (k: CloudpasteImportKind) => t(`adminPanel.backup.cloudpaste.kinds.${k}`);
  const counts = (k: CloudpasteImportKind) => {
    const row = report.kinds[k];
    return [
      [t('adminPanel.backup.cloudpaste.inBackup'), row.total],
      [done ? t('adminPanel.backup.cloudpaste.created') : t('adminPanel.backup.cloudpaste.willCreate'), row.created],
      [t('adminPanel.backup.cloudpaste.skipped'), row.skipped.length],
      [t('adminPanel.backup.cloudpaste.notSupported'), row.not_supported.length],
    ] as const;
  };
  return (
    <>
      <ul className="grid gap-2 sm:hidden">
        {CLOUDPASTE_IMPORT_KINDS.map((k) => (
          <li key={k} className="rounded-lg border border-border p-3">
            <p className="font-medium">{kind(k)}</p>
            <dl className="mt-2 grid grid-cols-4 gap-2 text-xs text-muted-foreground">
              {counts(k).map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd className="tabular-nums text-foreground">{n(value)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden sm:block">
        <Table data-testid={done ? 'cloudpaste-result-table' : 'cloudpaste-report-table'}>
          <THead>
            <tr className="border-b border-border">
              <TH>{t('adminPanel.backup.cloudpaste.kind')}</TH>
              <TH className="text-end">{t('adminPanel.backup.cloudpaste.inBackup')}</TH>
              <TH className="text-end">
                {done ? t('adminPanel.backup.cloudpaste.created') : t('adminPanel.backup.cloudpaste.willCreate')}
              </TH>
              <TH className="text-end">{t('adminPanel.backup.cloudpaste.skipped')}</TH>
              <TH className="text-end">{t('adminPanel.backup.cloudpaste.notSupported')}</TH>
            </tr>
          </THead>
          <TBody>
            {CLOUDPASTE_IMPORT_KINDS.map((k) => {
              const row = report.kinds[k];
              return (
                <TR key={k} data-testid={`cloudpaste-kind-${k}`}>
                  <TD className="font-medium">{kind(k)}</TD>
                  <TD className="text-end tabular-nums">{n(row.total)}</TD>
                  <TD className="text-end tabular-nums" data-testid="created">
                    {n(row.created)}
                  </TD>
                  <TD className="text-end tabular-nums">{n(row.skipped.length)}</TD>
                  <TD className="text-end tabular-nums">{n(row.not_supported.length)}</TD>
                </TR>
              );
            })}
          </TBody>
        </Table>
      </div>
    </>
  );
}

/** Rows left out, each with its reason, and tables not imported: folded away under the table. */
function ReportDetails({ report }: { report: CloudpasteImportReport }) {
  const { t } = useTranslation();
  const items = CLOUDPASTE_IMPORT_KINDS.flatMap((k) => [
    ...report.kinds[k].skipped.map((item) => ({ ...item, k, status: t('adminPanel.backup.cloudpaste.skipped') })),
    ...report.kinds[k].not_supported.map((item) => ({
      ...item,
      k,
      status: t('adminPanel.backup.cloudpaste.notSupported'),
    })),
  ]);
  if (items.length === 0 && report.ignored_tables.length === 0) return null;
  return (
    <details className="rounded-lg border border-border p-3 text-sm">
      <summary className="cursor-pointer font-medium">
        {t('adminPanel.backup.cloudpaste.details', { count: items.length + report.ignored_tables.length })}
      </summary>
      <ul className="mt-2 flex flex-col gap-1.5">
        {items.map((item) => (
          <li key={`${item.k}-${item.id}`} className="break-words">
            <span className="font-medium">{item.name}</span>{' '}
            <span className="text-muted-foreground">
              ({t(`adminPanel.backup.cloudpaste.kinds.${item.k}`)}, {item.status})
            </span>
            : {item.reason}
          </li>
        ))}
        {report.ignored_tables.map((table) => (
          <li key={table.table} className="break-words">
            <code className="text-xs">{table.table}</code>{' '}
            <span className="text-muted-foreground">
              ({t('adminPanel.backup.cloudpaste.tableRows', { count: table.rows })})
            </span>
            : {table.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Backup page: move in from CloudPaste — pick its backup, see the dry run, map LOCAL roots, import. */
export function CloudpasteImport() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; size: number; text: string } | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [roots, setRoots] = useState<Record<string, string>>({});
  const [onConflict, setOnConflict] = useState<CloudpasteConflictMode>('skip');
  const [report, setReport] = useState<CloudpasteImportReport | null>(null);
  const [result, setResult] = useState<CloudpasteImportReport | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [importing, setImporting] = useState(false);

  /** Mapped roots with a folder typed in (empty fields are left out: that root is not imported). */
  const mapped = (values: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(values)
        .filter(([, folder]) => folder.trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    );

  async function dryRun(text: string, values: Record<string, string>, mode: CloudpasteConflictMode) {
    setChecking(true);
    setRefusal(null);
    try {
      setReport(await importCloudpaste(text, { dryRun: true, localRoots: mapped(values), onConflict: mode }));
    } catch (error) {
      setReport(null);
      if (!(isApiError(error) && error.loggedOut)) setRefusal(error);
    } finally {
      setChecking(false);
    }
  }

  async function pick(chosen: File | undefined) {
    setResult(null);
    setReport(null);
    setRefusal(null);
    setRoots({});
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setFile(null);
      setFileError(t('adminPanel.backup.cloudpaste.tooLarge'));
      return;
    }
    setFileError(undefined);
    const text = await chosen.text();
    setFile({ name: chosen.name, size: chosen.size, text });
    await dryRun(text, {}, onConflict);
  }

  async function runImport() {
    if (!file) return;
    setImporting(true);
    try {
      const done = await importCloudpaste(file.text, { dryRun: false, localRoots: mapped(roots), onConflict });
      setConfirming(false);
      setResult(done);
      setReport(null);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      void client.invalidateQueries({ queryKey: ['admin'] });
      toast.success(t('adminPanel.backup.cloudpaste.imported'));
    } catch (error) {
      setConfirming(false);
      if (!(isApiError(error) && error.loggedOut)) {
        setRefusal(error);
        toast.error(errorMessage(error));
      }
    } finally {
      setImporting(false);
    }
  }

  const created = report ? CLOUDPASTE_IMPORT_KINDS.reduce((sum, k) => sum + report.kinds[k].created, 0) : 0;

  return (
    <SettingsSection
      title={t('adminPanel.backup.cloudpaste.title')}
      description={t('adminPanel.backup.cloudpaste.body')}
    >
      <div data-testid="cloudpaste-import" className="flex flex-col gap-4">
        <JsonFilePicker
          label={t('adminPanel.backup.cloudpaste.file')}
          hint={t('adminPanel.backup.cloudpaste.fileHint')}
          file={file}
          error={fileError}
          onPick={(chosen) => void pick(chosen)}
          inputRef={inputRef}
          nameTestId="cloudpaste-file-name"
          inputTestId="cloudpaste-file-input"
        />

        {checking && (
          <div className="space-y-2" aria-busy="true">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-32 w-full" />
          </div>
        )}

        {refusal != null && !checking && (
          <Alert tone="danger" title={t('adminPanel.backup.cloudpaste.refused')}>
            <p data-testid="cloudpaste-refusal" className="break-words">
              {errorMessage(refusal)}
            </p>
            <ErrorDetails detail={serverDetail(refusal)} className="mt-1" />
          </Alert>
        )}

        {report && file && !checking && (
          <div className="flex flex-col gap-4" data-testid="cloudpaste-report">
            <p className="text-sm">
              {t('adminPanel.backup.cloudpaste.source', {
                version: report.source.schema_version,
                type:
                  report.source.backup_type === 'full' || report.source.backup_type === 'modules'
                    ? t(`adminPanel.backup.cloudpaste.backupTypes.${report.source.backup_type}`)
                    : report.source.backup_type,
                count: report.source.total_records,
              })}
            </p>
            <ReportTable report={report} done={false} />
            <ReportDetails report={report} />

            {report.local_roots.length > 0 && (
              <fieldset className="flex flex-col gap-3">
                <legend className="mb-1 text-sm font-medium">{t('adminPanel.backup.cloudpaste.rootsTitle')}</legend>
                <p className="text-xs text-muted-foreground">{t('adminPanel.backup.cloudpaste.rootsHint')}</p>
                {report.local_roots.map((root, index) => (
                  <Field
                    key={root.root_path}
                    id={`cloudpaste-root-${index}`}
                    label={t('adminPanel.backup.cloudpaste.rootLabel', {
                      root: root.root_path,
                      configs: root.configs.join(', '),
                    })}
                    help={
                      root.mapped_to
                        ? t('adminPanel.backup.cloudpaste.rootMapped', { folder: root.mapped_to })
                        : t('adminPanel.backup.cloudpaste.rootUnmapped')
                    }
                  >
                    <Input
                      id={`cloudpaste-root-${index}`}
                      data-testid="cloudpaste-root-input"
                      placeholder="/srv/clipnest/storage/cloudpaste"
                      value={roots[root.root_path] ?? ''}
                      onChange={(event) => setRoots((old) => ({ ...old, [root.root_path]: event.target.value }))}
                      autoComplete="off"
                      spellCheck={false}
                    />
                  </Field>
                ))}
                <div>
                  <Button variant="secondary" onClick={() => void dryRun(file.text, roots, onConflict)}>
                    <RefreshCw className="size-4" aria-hidden="true" />
                    {t('adminPanel.backup.cloudpaste.checkAgain')}
                  </Button>
                </div>
              </fieldset>
            )}

            <div className="flex flex-col gap-2">
              <span className="text-sm font-medium">{t('adminPanel.backup.cloudpaste.onConflict')}</span>
              <ChoiceChips
                label={t('adminPanel.backup.cloudpaste.onConflict')}
                value={onConflict}
                onChange={(next) => {
                  setOnConflict(next);
                  void dryRun(file.text, roots, next);
                }}
                options={CLOUDPASTE_CONFLICT_MODES.map((m) => ({
                  value: m,
                  label: t(`adminPanel.backup.cloudpaste.conflict.${m}`),
                }))}
              />
            </div>

            {report.warnings.length > 0 && (
              <Alert tone="warning" title={t('adminPanel.backup.warnings')}>
                <ul className="list-disc break-words ps-4" data-testid="cloudpaste-warnings">
                  {report.warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              </Alert>
            )}

            <div className="flex justify-end">
              <Button onClick={() => setConfirming(true)} disabled={created === 0}>
                <PackageOpen className="size-4" aria-hidden="true" />
                {t('adminPanel.backup.cloudpaste.import')}
              </Button>
            </div>
          </div>
        )}

        {result && (
          <div className="flex flex-col gap-3" data-testid="cloudpaste-result">
            <Alert tone="info" title={t('adminPanel.backup.cloudpaste.doneTitle')}>
              <p>{t('adminPanel.backup.cloudpaste.doneBody')}</p>
            </Alert>
            <ReportTable report={result} done />
            <ReportDetails report={result} />
          </div>
        )}
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('adminPanel.backup.cloudpaste.confirmTitle', { name: file?.name ?? '' })}
        description={t('adminPanel.backup.cloudpaste.confirmBody', { count: created })}
        confirmLabel={t('adminPanel.backup.cloudpaste.import')}
        busy={importing}
        onConfirm={() => void runImport()}
      />
    </SettingsSection>
  );
}
