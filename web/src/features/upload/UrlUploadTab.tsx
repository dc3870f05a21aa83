import type { UrlFetchJob, UrlInfo } from '@clipnest/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Copy, ExternalLink, FileDown, Link2, RotateCcw, Search, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Progress } from '../../components/ui/progress';
import { errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDuration, formatSpeed } from '../../lib/format';
import { RECENT_UPLOADS_QUERY_KEY, shareLink, useStorageTargets } from './api';
import { ExpiryField, StorageTargetField } from './ShareOptionsForm';
import { SpeedMeter } from '../../lib/uploader/speed';
import { cancelUrlJob, checkUrl, followUrlJob, startUrlFetch, urlInfo } from './urlUpload';

type Phase = 'idle' | 'analyzing' | 'ready' | 'downloading' | 'completed' | 'cancelled' | 'failed';

interface Transfer {
  job: UrlFetchJob;
  speed: number | null;
  eta: number | null;
}

/** The URL tab (spec §2 Upload, §4 URL upload): analyze, optional filename, server-side fetch with progress. */
export function UrlUploadTab({ isAdmin }: { isAdmin: boolean }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const targets = useStorageTargets(isAdmin);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string>();
  const [info, setInfo] = useState<UrlInfo | null>(null);
  const [filename, setFilename] = useState('');
  const [configId, setConfigId] = useState('');
  const [expiry, setExpiry] = useState('0');
  const [password, setPassword] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [transfer, setTransfer] = useState<Transfer | null>(null);
  const [error, setError] = useState<string>();
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const defaultTarget = (targets.data?.find((c) => c.is_default) ?? targets.data?.[0])?.id ?? '';
  const target = configId || defaultTarget;
  const busy = phase === 'analyzing' || phase === 'downloading';

  const urlProblem = (value: string) => {
    const problem = checkUrl(value);
    return problem
      ? t(`files.upload.url.${problem === 'empty' ? 'urlRequired' : problem === 'scheme' ? 'urlScheme' : 'urlInvalid'}`)
      : undefined;
  };

  const analyze = async (event?: FormEvent) => {
    event?.preventDefault();
    const problem = urlProblem(url);
    setUrlError(problem);
    if (problem) return;
    setPhase('analyzing');
    setError(undefined);
    setInfo(null);
    setTransfer(null);
    try {
      const result = await urlInfo(url);
      setInfo(result);
      setFilename('');
      setPhase('ready');
    } catch (err) {
      const message = errorMessage(err);
      setError(message);
      setPhase('idle');
      toast.error(message);
    }
  };

  const start = async () => {
    if (!info) return;
    const abort = new AbortController();
    controller.current = abort;
    const meter = new SpeedMeter();
    setPhase('downloading');
    setError(undefined);
    try {
      const job = await startUrlFetch(info.url, filename || undefined, {
        s3_config_id: isAdmin ? target || undefined : undefined,
        expires_in: Number(expiry) || undefined,
        password: password || undefined,
      });
      const final = await followUrlJob(
        job,
        (current) => {
          meter.add(current.received, performance.now());
          const total = current.total ?? info.size;
          setTransfer({ job: current, speed: meter.speed(), eta: total ? meter.eta(total) : null });
        },
        abort.signal,
      );
      if (abort.signal.aborted) return;
      if (final.status === 'completed') {
        setPhase('completed');
        toast.success(t('files.upload.url.done', { name: final.file?.filename ?? final.filename }));
        void client.invalidateQueries({ queryKey: RECENT_UPLOADS_QUERY_KEY });
      } else if (final.status === 'cancelled') {
        setPhase('cancelled');
      } else {
        const message = final.error || t('errors.unknown');
        setError(message);
        setPhase('failed');
        toast.error(message);
      }
    } catch (err) {
      if (abort.signal.aborted) return;
      const message = errorMessage(err);
      setError(message);
      setPhase('failed');
      toast.error(message);
    }
  };

  const cancel = async () => {
    const job = transfer?.job;
    controller.current?.abort();
    setPhase('cancelled');
    toast.info(t('errors.upload.downloadCancelled'));
    if (job) await cancelUrlJob(job.job_id).catch(() => undefined);
  };

  const reset = () => {
    setPhase('idle');
    setInfo(null);
    setTransfer(null);
    setFilename('');
    setUrl('');
    setError(undefined);
  };

  const job = transfer?.job;
  const total = job?.total ?? info?.size ?? null;
  const received = job?.received ?? 0;
  const percent = phase === 'completed' ? 100 : total ? Math.min(100, (received / total) * 100) : null;
  const result = job?.file;
  const link = phase === 'completed' && result ? shareLink(result.slug) : null;

  const copy = async () => {
    if (link && (await copyText(link))) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };

  return (
    <div className="flex w-full max-w-3xl flex-col gap-4">
      <form
        onSubmit={(event) => void analyze(event)}
        noValidate
        className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 shadow-sm"
      >
        <Field id="url-source" label={t('files.upload.url.label')} help={t('files.upload.url.help')} error={urlError}>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              {...fieldAria('url-source', urlError, true)}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/file.zip"
              value={url}
              disabled={phase === 'downloading'}
              onChange={(event) => {
                setUrl(event.target.value);
                if (urlError) setUrlError(undefined);
                if (info && phase !== 'downloading') {
                  setInfo(null);
                  setPhase('idle');
                }
              }}
              className="w-full min-w-0 sm:flex-1"
            />
            <Button type="submit" variant="secondary" loading={phase === 'analyzing'} disabled={busy}>
              <Search className="size-4" aria-hidden="true" />
              {t('files.upload.url.analyze')}
            </Button>
          </div>
        </Field>
        {phase === 'idle' && error && <Alert tone="danger">{error}</Alert>}
      </form>

      {!info && phase === 'idle' && !error && (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-border px-4 py-8 text-center">
          <div className="grid size-12 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
            <Link2 className="size-6" aria-hidden="true" />
          </div>
          <p className="font-medium">{t('files.upload.url.emptyTitle')}</p>
          <p className="max-w-sm text-sm text-muted-foreground">{t('files.upload.url.emptyBody')}</p>
        </div>
      )}

      {info && (
        <section
          aria-labelledby="url-info-title"
          className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4 shadow-sm"
          data-testid="url-info"
        >
          <div className="flex items-start gap-3">
            <div
              className={
                phase === 'completed'
                  ? 'grid size-10 shrink-0 place-items-center rounded-lg bg-success-soft text-success-soft-foreground'
                  : 'grid size-10 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary-soft-foreground'
              }
            >
              {phase === 'completed' ? (
                <CircleCheck className="size-5" aria-hidden="true" />
              ) : (
                <FileDown className="size-5" aria-hidden="true" />
              )}
            </div>
            <div className="w-full min-w-0 sm:flex-1">
              <h2
                id="url-info-title"
                className="truncate text-sm font-medium"
                title={result?.filename ?? info.filename}
              >
                {result?.filename ?? info.filename}
              </h2>
              <p className="text-xs text-muted-foreground">
                {info.size !== null ? formatBytes(info.size, i18n.language) : t('files.upload.url.sizeUnknown')}
                {' · '}
                {info.mimetype || 'application/octet-stream'}
              </p>
              <p className="truncate text-xs text-muted-foreground" title={info.final_url}>
                {info.final_url}
              </p>
            </div>
          </div>

          {phase === 'ready' && (
            <div className="flex flex-col gap-4">
              <Field
                id="url-filename"
                label={t('files.upload.url.filename')}
                optional={t('common.optional')}
                help={t('files.upload.url.filenameHelp')}
              >
                <Input
                  {...fieldAria('url-filename', undefined, true)}
                  value={filename}
                  placeholder={info.filename}
                  onChange={(event) => setFilename(event.target.value)}
                  maxLength={255}
                />
              </Field>
              {isAdmin && (targets.data?.length ?? 0) > 1 && (
                <StorageTargetField
                  id="url-target"
                  value={target}
                  onChange={setConfigId}
                  targets={targets.data ?? []}
                />
              )}
              <ExpiryField id="url-expiry" value={expiry} onChange={setExpiry} />
              <Field
                id="url-password"
                label={t('files.upload.options.password')}
                optional={t('common.optional')}
                help={t('files.upload.options.passwordHelp')}
              >
                <Input
                  {...fieldAria('url-password', undefined, true)}
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </Field>
              <div className="flex justify-end">
                <Button size="lg" onClick={() => void start()} className="w-full sm:w-auto">
                  <FileDown className="size-4" aria-hidden="true" />
                  {t('files.upload.url.start')}
                </Button>
              </div>
            </div>
          )}

          {(phase === 'downloading' || phase === 'completed' || phase === 'cancelled' || phase === 'failed') && (
            <div className="flex flex-col gap-1.5" data-testid="url-progress" data-phase={phase}>
              <Progress
                value={phase === 'downloading' ? percent : phase === 'completed' ? 100 : (percent ?? 0)}
                tone={
                  phase === 'failed'
                    ? 'danger'
                    : phase === 'cancelled'
                      ? 'muted'
                      : phase === 'completed'
                        ? 'success'
                        : 'primary'
                }
                label={t('files.upload.url.progressLabel', { name: info.filename })}
                valueText={percent !== null ? `${Math.round(percent)}%` : undefined}
              />
              <div className="flex flex-wrap justify-between gap-x-3 text-xs tabular-nums text-muted-foreground">
                <span data-testid="url-progress-text">
                  {t(`files.upload.url.phase.${phase}`)}
                  {' · '}
                  {total
                    ? `${formatBytes(received, i18n.language)} / ${formatBytes(total, i18n.language)}`
                    : formatBytes(received, i18n.language)}
                  {percent !== null && ` · ${Math.round(percent)}%`}
                </span>
                {phase === 'downloading' && (
                  <span>
                    {transfer?.speed != null &&
                      t('files.upload.speed', { speed: formatSpeed(transfer.speed, i18n.language) })}
                    {transfer?.speed != null && transfer.eta != null && ' · '}
                    {transfer?.eta != null && t('files.upload.timeLeft', { time: formatDuration(transfer.eta) })}
                  </span>
                )}
              </div>
            </div>
          )}

          {phase === 'failed' && error && <Alert tone="danger">{error}</Alert>}

          {link && result && (
            <div className="flex flex-col gap-2">
              <a
                href={link}
                className="truncate rounded-sm font-mono text-xs text-primary-soft-foreground underline-offset-2 hover:underline"
                data-testid="url-link"
              >
                {link}
              </a>
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" size="sm" onClick={() => void copy()}>
                  <Copy className="size-4" aria-hidden="true" />
                  {t('files.upload.url.copy')}
                </Button>
                <Link to={`/file/${encodeURIComponent(result.slug)}`} className={buttonClasses('secondary', 'sm')}>
                  <ExternalLink className="size-4" aria-hidden="true" />
                  {t('files.upload.url.open')}
                </Link>
              </div>
            </div>
          )}

          <div className="flex flex-wrap justify-end gap-2">
            {phase === 'downloading' && (
              <Button variant="destructive-ghost" onClick={() => void cancel()}>
                <X className="size-4" aria-hidden="true" />
                {t('files.upload.url.cancel')}
              </Button>
            )}
            {(phase === 'failed' || phase === 'cancelled') && (
              <Button variant="secondary" onClick={() => void start()}>
                <RotateCcw className="size-4" aria-hidden="true" />
                {t('files.upload.url.retry')}
              </Button>
            )}
            {(phase === 'completed' || phase === 'failed' || phase === 'cancelled') && (
              <Button variant="ghost" onClick={reset}>
                {t('files.upload.url.another')}
              </Button>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
