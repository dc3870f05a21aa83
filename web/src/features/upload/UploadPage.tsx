import { hasPermission, Permission } from '@clipnest/contract';
import { useQueryClient } from '@tanstack/react-query';
import { ClipboardPaste, CloudUpload, Copy, ExternalLink, FileUp, Link2, LogIn } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { Button, buttonClasses } from '../../components/ui/button';
import { Dropzone } from '../../components/ui/dropzone';
import { EmptyState } from '../../components/ui/empty-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { formatBytes } from '../../lib/format';
import { useSession } from '../../lib/useSession';
import type { ShareView } from '@clipnest/contract';
import { Progress } from '../../components/ui/progress';
import { SwitchField } from '../../components/ui/switch';
import { copyText } from '../../lib/clipboard';
import { RECENT_UPLOADS_QUERY_KEY, uploadBundle, useMaxUploadSize, useRecentUploads, useStorageTargets } from './api';
import { RecentUploads } from './RecentUploads';
import { ResumePanel, useResumeRecords } from './ResumePanel';
import { matchesRecord, type ResumeRecord } from '../../lib/uploader/resumeStore';
import { UrlUploadTab } from './UrlUploadTab';
import {
  EMPTY_OPTIONS,
  ShareOptionsForm,
  toShareOptions,
  validateOptions,
  type ShareOptionsState,
} from './ShareOptionsForm';
import { isActive, UploadQueueList } from './UploadQueueList';
import { E2EE_SOURCE_KIND, useUploadQueue, type E2eeChoice, type QueueItem } from './useUploadQueue';

/** A pasted screenshot arrives as "image.png": give it a readable, unique name. */
function namePasted(file: File, index: number): File {
  if (file.name && !/^image\.\w+$/i.test(file.name)) return file;
  const ext = file.type.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return new File([file], `pasted-${stamp}${index ? `-${index + 1}` : ''}.${ext}`, { type: file.type });
}

function FileUploadTab({ isAdmin }: { isAdmin: boolean }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const maxSize = useMaxUploadSize();
  // Admins and FILE_SHARE keys may list configs; the select shows when there is a choice to make.
  const targets = useStorageTargets(true);
  const showTargets = isAdmin || (targets.data?.length ?? 0) > 1;
  const recent = useRecentUploads(true);
  const [options, setOptions] = useState<ShareOptionsState>(EMPTY_OPTIONS);
  const [submitted, setSubmitted] = useState(false);
  // "One link for all": the pending files go in one request as a bundle (docs/api/shares.md).
  const [bundle, setBundle] = useState(false);
  const [bundleProgress, setBundleProgress] = useState<number | null>(null);
  const [bundled, setBundled] = useState<ShareView | null>(null);
  const limit = maxSize.data;

  // The default storage config is preselected until the user picks another.
  const defaultTarget = (targets.data?.find((c) => c.is_default) ?? targets.data?.[0])?.id ?? '';
  const effective: ShareOptionsState = { ...options, s3_config_id: options.s3_config_id || defaultTarget };

  const queue = useUploadQueue({
    validate: (file) =>
      limit !== undefined && file.size > limit
        ? t('errors.upload.fileTooLarge', { limit: formatBytes(limit, i18n.language) })
        : undefined,
    onDone: () => void client.invalidateQueries({ queryKey: RECENT_UPLOADS_QUERY_KEY }),
    // Slug conflicts are summed up once per batch (spec §8: all or some taken).
    onError: (item, message, status) => {
      if (status !== 409) toast.error(`${item.name}: ${message}`);
    },
    targetOf: (opts) => ({
      storageType: targets.data?.find((c) => c.id === opts.s3_config_id)?.storage_type ?? null,
    }),
  });

  // Unfinished multipart uploads from an earlier visit, except files already in the queue.
  const saved = useResumeRecords().filter((record) => !queue.items.some((item) => matchesRecord(item.file, record)));
  const resume = (file: File, record: ResumeRecord) => {
    const items = queue.enqueue([file]);
    toast.success(t('files.upload.multipart.resuming', { name: file.name }));
    // An encrypted session goes on with the key it was started with (kept with the session).
    void queue.start(
      items,
      { ...toShareOptions(effective), s3_config_id: record.s3_config_id || undefined, slug: undefined },
      record.source?.kind === E2EE_SOURCE_KIND ? { resume: true } : undefined,
    );
  };

  const errors = submitted ? validateOptions(effective, t) : {};
  const pending = queue.items.filter((item) => item.stage === 'pending' && !item.problem);
  const busy = queue.items.some(isActive) || bundleProgress !== null;
  const canBundle = pending.length >= 2 && !effective.encrypted;
  const finished = queue.items.some((item) => item.stage === 'completed' || item.stage === 'cancelled');

  /**
   * Files over the size limit are refused at once, in red, and never queued (a queued one read "Ready" and
   * came with a green "1 file added"); the others are added.
   */
  const addFiles = (files: File[], kind: 'added' | 'pasted' = 'added') => {
    const tooLarge = limit === undefined ? [] : files.filter((file) => file.size > limit);
    const accepted = files.filter((file) => !tooLarge.includes(file));
    if (tooLarge.length > 0 && limit !== undefined) {
      const size = formatBytes(limit, i18n.language);
      toast.error(
        tooLarge.length === 1
          ? t('files.upload.refusedOne', { name: tooLarge[0]!.name, limit: size })
          : t('files.upload.refusedMany', { count: tooLarge.length, limit: size }),
      );
    }
    if (accepted.length === 0) return;
    const added = queue.add(accepted);
    toast.success(t(kind === 'added' ? 'files.upload.added' : 'files.upload.pasted', { count: added }));
  };

  const addFilesRef = useRef(addFiles);
  useEffect(() => {
    addFilesRef.current = addFiles;
  });

  // Paste files from the clipboard anywhere on the page (spec: paste from clipboard).
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData?.files ?? []);
      if (files.length === 0) return;
      event.preventDefault();
      addFilesRef.current(files.map(namePasted), 'pasted');
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, []);

  const startUpload = () => {
    setSubmitted(true);
    if (Object.keys(validateOptions(effective, t)).length > 0) return;
    if (pending.length === 0) {
      toast.error(t('errors.upload.selectFiles'));
      return;
    }
    if (showTargets && targets.data && targets.data.length > 0 && !effective.s3_config_id) {
      toast.error(t('errors.upload.selectStorageConfig'));
      return;
    }
    if (canBundle && bundle) {
      setBundleProgress(0);
      setBundled(null);
      uploadBundle(
        pending.map((item) => item.file),
        toShareOptions(effective),
        setBundleProgress,
      )
        .then((share) => {
          for (const item of pending) queue.remove(item.id);
          setBundled(share);
          void client.invalidateQueries({ queryKey: RECENT_UPLOADS_QUERY_KEY });
        })
        .catch((error: unknown) =>
          toast.error(`${t('files.upload.bundleFailed')}: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => setBundleProgress(null));
      return;
    }
    void queue.start(pending, toShareOptions(effective), e2eeOf(effective)).then((outcomes) => {
      const conflicts = outcomes.filter((o) => o.status === 409).length;
      if (conflicts === 0) return;
      toast.error(
        outcomes.length === 1
          ? t('errors.slugTaken')
          : conflicts === outcomes.length
            ? t('errors.upload.slugConflictAll')
            : t('errors.upload.slugConflictSome'),
      );
    });
  };

  const retry = (item: QueueItem) =>
    void queue.start([item], { ...toShareOptions(effective), slug: undefined }, e2eeOf(effective));

  return (
    // Phones read top to bottom: files, options, the upload button, recent uploads. On wide screens
    // the options and recent uploads sit in a side column and the button stays under the files.
    <div className="grid gap-x-6 gap-y-4 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr_auto]">
      <div className="flex min-w-0 flex-col gap-4 lg:col-start-1 lg:row-start-1">
        <Dropzone onFiles={addFiles} label={t('files.upload.dropLabel')} inputTestId="upload-input">
          <div className="grid size-12 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
            <CloudUpload className="size-6" aria-hidden="true" />
          </div>
          <div>
            <p className="font-medium">{t('files.upload.dropTitle')}</p>
            <p className="mt-1 text-sm text-muted-foreground">
              {limit !== undefined
                ? t('files.upload.dropHint', { limit: formatBytes(limit, i18n.language) })
                : t('files.upload.dropHintNoLimit')}
            </p>
          </div>
          <p className="hidden items-center gap-1.5 text-xs text-muted-foreground sm:flex">
            <ClipboardPaste className="size-3.5" aria-hidden="true" />
            {t('files.upload.pasteHint')}
          </p>
        </Dropzone>

        <ResumePanel records={saved} onResume={resume} />

        {queue.items.length > 0 ? (
          <UploadQueueList items={queue.items} onRemove={queue.remove} onCancel={queue.cancel} onRetry={retry} />
        ) : (
          <p className="text-center text-sm text-muted-foreground">{t('files.upload.queueEmpty')}</p>
        )}
        {(canBundle || bundled || bundleProgress !== null) && (
          <div className="flex min-w-0 flex-col gap-3">
            {canBundle && (
              <SwitchField
                id="upload-bundle"
                className="rounded-lg border border-border px-3 py-2.5"
                label={t('files.upload.bundle')}
                help={t('files.upload.bundleHint')}
                checked={bundle}
                onCheckedChange={(next) => !busy && setBundle(next)}
              />
            )}
            {bundleProgress !== null && <Progress value={bundleProgress * 100} label={t('files.upload.bundle')} />}
            {bundled && (
              <div
                className="flex flex-wrap items-center gap-2 rounded-lg border border-border bg-surface px-3 py-2.5"
                data-testid="bundle-result"
              >
                <p className="min-w-0 flex-1 text-sm">
                  <span className="font-medium">{t('files.upload.bundleDone', { count: bundledCount(bundled) })}</span>
                  <br />
                  <a className="break-all font-mono text-xs text-primary underline" href={bundled.url}>
                    {absoluteUrl(bundled.url)}
                  </a>
                </p>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('common.copy')}
                  onClick={() =>
                    void copyText(absoluteUrl(bundled.url)).then((copied) =>
                      copied ? toast.success(t('common.copied')) : toast.error(t('common.copyFailed')),
                    )
                  }
                >
                  <Copy className="size-4" aria-hidden="true" />
                </Button>
                <Button variant="ghost" size="sm" asChild>
                  <a
                    href={bundled.url}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={t('files.manage.openShare', { name: bundled.name })}
                  >
                    <ExternalLink className="size-4" aria-hidden="true" />
                  </a>
                </Button>
              </div>
            )}
          </div>
        )}
      </div>

      <section
        aria-labelledby="upload-options"
        className="min-w-0 self-start rounded-xl border border-border bg-surface p-4 shadow-sm lg:col-start-2 lg:row-span-2 lg:row-start-1"
      >
        <h2 id="upload-options" className="mb-4 text-sm font-semibold">
          {t('files.upload.options.title')}
        </h2>
        <ShareOptionsForm
          value={effective}
          onChange={setOptions}
          errors={errors}
          disabled={busy}
          targets={targets.data ?? []}
          targetsLoading={isAdmin && targets.isPending}
          showTargets={showTargets && !targets.isError}
        />
      </section>

      {(pending.length > 0 || busy || finished) && (
        <div className="flex flex-col-reverse gap-2 self-start sm:flex-row sm:items-center sm:justify-end lg:col-start-1 lg:row-start-2">
          {finished && !busy && (
            <Button variant="ghost" onClick={queue.clearFinished}>
              {t('files.upload.clearFinished')}
            </Button>
          )}
          {(pending.length > 0 || busy) && (
            <Button onClick={startUpload} loading={busy} disabled={busy} size="lg">
              <FileUp className="size-4" aria-hidden="true" />
              {busy ? t('files.upload.uploading') : t('files.upload.start', { count: pending.length })}
            </Button>
          )}
        </div>
      )}

      <div className="min-w-0 lg:col-start-2 lg:row-start-3">
        <RecentUploads files={recent.data ?? []} loading={recent.isPending} />
      </div>
    </div>
  );
}

function absoluteUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${window.location.origin}${url}`;
}

/** How many files a bundle holds, from its name (`first.txt (+N)`). */
function bundledCount(share: ShareView): number {
  const more = /\(\+(\d+)\)$/.exec(share.name);
  return more ? Number(more[1]) + 1 : 1;
}

/** /upload (spec §2 Upload): file upload tab and upload from a URL. */
/** End-to-end encryption of the upload, when chosen: the password then becomes part of the key. */
function e2eeOf(state: ShareOptionsState): E2eeChoice | undefined {
  if (!state.encrypted) return undefined;
  return state.password ? { password: state.password } : {};
}

export default function UploadPage() {
  const { t } = useTranslation();
  const session = useSession();
  const allowed =
    session.type === 'admin' ||
    (session.type === 'apikey' && hasPermission(session.permissions, Permission.FILE_SHARE));
  const [tab, setTab] = useState('file');
  const title = useMemo(
    () => (
      <div>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('files.upload.title')}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{t('files.upload.description')}</p>
      </div>
    ),
    [t],
  );

  if (!allowed) {
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
        {title}
        <EmptyState
          icon={LogIn}
          title={t('files.upload.noAccessTitle')}
          description={session.type === 'apikey' ? t('files.upload.noAccessKey') : t('files.upload.noAccessBody')}
          action={
            <Link to="/admin" className={buttonClasses('primary')}>
              <LogIn className="size-4" aria-hidden="true" />
              {t('files.upload.login')}
            </Link>
          }
        />
      </div>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      {title}
      <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-5">
        <TabsList className="w-full sm:w-80">
          <TabsTrigger value="file">
            <FileUp aria-hidden="true" />
            {t('files.upload.tabFile')}
          </TabsTrigger>
          <TabsTrigger value="url">
            <Link2 aria-hidden="true" />
            {t('files.upload.tabUrl')}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="file" forceMount hidden={tab !== 'file'}>
          <FileUploadTab isAdmin={session.type === 'admin'} />
        </TabsContent>
        <TabsContent value="url">
          <UrlUploadTab isAdmin={session.type === 'admin'} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
