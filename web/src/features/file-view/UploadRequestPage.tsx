import type { PublicUploadRequestInfo } from '@clipnest/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CloudUpload, Inbox, LoaderCircle, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'wouter';
import { Dropzone } from '../../components/ui/dropzone';
import { Progress } from '../../components/ui/progress';
import { Skeleton } from '../../components/ui/skeleton';
import { formatBytes, formatDateTime } from '../../lib/format';
import { useTranslation } from '../../lib/useTranslation';
import { FileErrorState } from './FileErrorState';
import { PasswordGate } from './PasswordGate';
import { fetchUploadRequest, SendError, sendFile, useUploadRequest, type SendFailure } from './uploadRequestApi';

interface Sending {
  id: number;
  file: File;
  loaded: number;
  state: 'queued' | 'sending' | 'done' | 'failed';
  failure?: SendFailure;
  detail?: string;
  /** The name it was stored under (a suffix when the name existed). */
  storedAs?: string;
}

const CONCURRENCY = 2;
let counter = 0;

function Limits({ info }: { info: PublicUploadRequestInfo }) {
  const { t, i18n } = useTranslation();
  const parts: string[] = [];
  if (info.files_remaining !== null) parts.push(t('files.request.filesLeft', { count: info.files_remaining }));
  if (info.bytes_remaining !== null)
    parts.push(t('files.request.bytesLeft', { size: formatBytes(info.bytes_remaining, i18n.language) }));
  if (info.max_file_bytes > 0)
    parts.push(t('files.request.perFile', { size: formatBytes(info.max_file_bytes, i18n.language) }));
  if (info.expires_at) parts.push(t('files.request.until', { time: formatDateTime(info.expires_at, i18n.language) }));
  if (parts.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground" data-testid="request-limits">
      {parts.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

function Receiver({ slug, info, password }: { slug: string; info: PublicUploadRequestInfo; password?: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [items, setItems] = useState<Sending[]>([]);
  const running = useRef(0);
  const controller = useRef(new AbortController());
  useEffect(() => {
    const c = controller.current;
    return () => c.abort();
  }, []);

  const patch = (id: number, changes: Partial<Sending>) =>
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...changes } : item)));

  // Starts queued files, two at a time.
  useEffect(() => {
    const queued = items.filter((i) => i.state === 'queued');
    for (const item of queued) {
      if (running.current >= CONCURRENCY) break;
      running.current += 1;
      patch(item.id, { state: 'sending' });
      sendFile(slug, item.file, {
        ...(password ? { password } : {}),
        signal: controller.current.signal,
        onProgress: (loaded) => patch(item.id, { loaded }),
      })
        .then((receipt) =>
          patch(item.id, { state: 'done', loaded: item.file.size, storedAs: receipt.files[0]?.name ?? item.file.name }),
        )
        .catch((error: unknown) => {
          const failure = error instanceof SendError ? error.failure : 'network';
          patch(item.id, { state: 'failed', failure, detail: error instanceof SendError ? error.detail : undefined });
        })
        .finally(() => {
          running.current -= 1;
          void client.invalidateQueries({ queryKey: ['public-upload-request', slug] });
          setItems((list) => [...list]);
        });
    }
  }, [items, slug, password, client]);

  const add = (files: File[]) => {
    const added = files.map<Sending>((file) => {
      counter += 1;
      const tooLarge = info.max_file_bytes > 0 && file.size > info.max_file_bytes;
      const empty = file.size === 0;
      return {
        id: counter,
        file,
        loaded: 0,
        state: tooLarge || empty ? 'failed' : 'queued',
        ...(tooLarge ? { failure: 'tooLarge' as const } : empty ? { failure: 'invalid' as const } : {}),
      };
    });
    setItems((list) => [...list, ...added]);
  };

  const failureText = (item: Sending) =>
    ({
      quota: t('files.request.errors.quota'),
      expired: t('files.request.errors.expired'),
      gone: t('files.request.errors.gone'),
      password: t('files.request.errors.password'),
      rateLimited: t('files.request.errors.rateLimited'),
      network: t('files.request.errors.network'),
      tooLarge: t('files.request.errors.tooLarge', {
        size: formatBytes(info.max_file_bytes, i18n.language),
      }),
      invalid: t('files.request.errors.invalid'),
      server: t('files.request.errors.server'),
    })[item.failure ?? 'server'];

  const full = info.files_remaining === 0 || info.bytes_remaining === 0;
  const sent = items.filter((i) => i.state === 'done').length;

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-5" data-testid="upload-request">
      <header className="flex flex-col gap-2">
        <h1 className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
          <Inbox className="size-6 shrink-0 text-primary" aria-hidden="true" />
          {t('files.request.title')}
        </h1>
        {info.note ? (
          <p className="whitespace-pre-wrap break-words rounded-lg border border-border bg-surface p-3 text-sm">
            {info.note}
          </p>
        ) : null}
        <Limits info={info} />
      </header>

      {full ? (
        <p role="status" className="rounded-lg border border-border bg-surface p-4 text-sm">
          {t('files.request.full')}
        </p>
      ) : (
        <Dropzone onFiles={add} label={t('files.request.dropLabel')} inputTestId="request-input">
          <div className="grid size-12 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
            <CloudUpload className="size-6" aria-hidden="true" />
          </div>
          <div>
            <p className="font-medium">{t('files.request.dropTitle')}</p>
            <p className="mt-1 text-sm text-muted-foreground">{t('files.request.dropHint')}</p>
          </div>
        </Dropzone>
      )}

      {items.length > 0 && (
        <section aria-labelledby="request-sent" className="flex flex-col gap-2">
          <h2 id="request-sent" className="text-sm font-semibold">
            {t('files.request.sent', { count: sent, total: items.length })}
          </h2>
          <ul className="divide-y divide-border rounded-lg border border-border bg-surface" aria-live="polite">
            {items.map((item) => {
              const percent = item.file.size > 0 ? Math.round((item.loaded / item.file.size) * 100) : 0;
              return (
                <li key={item.id} className="flex flex-col gap-1.5 px-3 py-2.5" data-testid="request-item">
                  <div className="flex items-center gap-2">
                    {item.state === 'done' ? (
                      <CheckCircle2 className="size-4 shrink-0 text-success-soft-foreground" aria-hidden="true" />
                    ) : item.state === 'failed' ? (
                      <XCircle className="size-4 shrink-0 text-destructive-soft-foreground" aria-hidden="true" />
                    ) : (
                      <LoaderCircle className="size-4 shrink-0 animate-spin text-muted-foreground" aria-hidden="true" />
                    )}
                    <span className="min-w-0 flex-1 truncate text-sm font-medium">{item.file.name}</span>
                    <span className="shrink-0 text-xs text-muted-foreground">
                      {formatBytes(item.file.size, i18n.language)}
                    </span>
                  </div>
                  {item.state === 'sending' || item.state === 'queued' ? (
                    <Progress value={item.state === 'queued' ? 0 : percent} label={item.file.name} />
                  ) : item.state === 'done' ? (
                    <p className="text-xs text-muted-foreground">
                      {item.storedAs && item.storedAs !== item.file.name
                        ? t('files.request.doneAs', { name: item.storedAs })
                        : t('files.request.done')}
                    </p>
                  ) : (
                    <p className="text-xs text-destructive-soft-foreground" role="alert" title={item.detail}>
                      {failureText(item)}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}

/** /r/{slug}: an upload link: the note, a drop zone and what was sent, without logging in. */
export default function UploadRequestPage() {
  const { slug = '' } = useParams();
  const { t } = useTranslation();
  const [password, setPassword] = useState<string | undefined>();
  const info = useUploadRequest(slug, password);

  if (!slug) return <FileErrorState kind="missingId" />;
  return (
    <PasswordGate
      info={info}
      loading={
        <div className="mx-auto flex w-full max-w-2xl flex-col gap-4" aria-busy="true">
          <Skeleton className="h-20 w-full rounded-xl" />
          <Skeleton className="h-48 w-full rounded-xl" />
        </div>
      }
      texts={{
        title: t('files.request.passwordTitle'),
        body: t('files.request.passwordBody'),
        submit: t('files.request.unlock'),
      }}
      attempt={async (candidate) => {
        await fetchUploadRequest(slug, candidate);
        setPassword(candidate);
      }}
    >
      {(data) => <Receiver slug={slug} info={data} {...(password ? { password } : {})} />}
    </PasswordGate>
  );
}
