import type { FileKind, PublicFileDetails } from '@clipnest/contract';
import { archiveFormatOf } from '@clipnest/contract/archives';
import {
  CalendarClock,
  Download,
  Eye,
  File as FileIcon,
  FileArchive,
  FileAudio,
  FileImage,
  FileText,
  FileVideo,
  RefreshCw,
  ShieldAlert,
} from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { useParams } from 'wouter';
import { withTextAreas } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Skeleton } from '../../components/ui/skeleton';
import { serverDetail } from '../../components/ui/error-details';
import { errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format';
import { fileErrorKind, resolveFileUrl, usePublicFile, verifyFilePassword } from './api';
import { FileErrorState } from './FileErrorState';
import { PasswordPrompt } from './PasswordPrompt';
import { FileSummary } from './FileSummary';
import { MediaPreview } from './previews/MediaPreview';
import { LinkButtons } from './LinkButtons';
import { EpubReader, HlsVideo } from '../../components/preview/lazyPreviews';
import { namedPreviewKind, usePreviewTypes } from '../../lib/previewTypes';

// Text/Markdown/Office previews pull in highlight.js, marked and DOMPurify: load them on demand.
const CodePreview = lazy(() =>
  withTextAreas(['preview'], () => import('./previews/TextPreview')).then((m) => ({ default: m.CodePreview })),
);
const MarkdownPreview = lazy(() => import('./previews/TextPreview').then((m) => ({ default: m.MarkdownPreview })));
const QrDialog = lazy(() => import('./QrDialog'));
// Only encrypted shares load the crypto code.
const EncryptedFile = lazy(() => import('./EncryptedFile'));
const OfficePreview = lazy(() =>
  withTextAreas(['preview'], () => import('./previews/OfficePreview')).then((m) => ({ default: m.OfficePreview })),
);
// CSV/TSV as a sortable table (parsed in a worker): loaded only for them.
const BuiltinPreview = lazy(() =>
  withTextAreas(['preview'], () => import('../../components/preview/builtin/BuiltinPreview')).then((m) => ({
    default: m.BuiltinPreview,
  })),
);

const ShareArchivePreview = lazy(() =>
  withTextAreas(['preview'], () => import('./previews/ShareArchivePreview')).then((m) => ({
    default: m.ShareArchivePreview,
  })),
);

const TABLE_TEXT = /\.(csv|tsv)$/i;

const KIND_ICONS: Record<FileKind, typeof FileIcon> = {
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  pdf: FileText,
  markdown: FileText,
  text: FileText,
  office: FileText,
  other: FileArchive,
};

function PageSkeleton() {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-5" aria-busy="true">
      <div className="flex items-center gap-4 rounded-xl border border-border bg-surface p-5">
        <Skeleton className="size-12 rounded-xl" />
        <div className="flex-1 space-y-2">
          <Skeleton className="h-5 w-64 max-w-full" />
          <Skeleton className="h-4 w-40" />
        </div>
      </div>
      <Skeleton className="h-[50dvh] w-full rounded-xl" />
    </div>
  );
}

function LinkExpired({ onRefresh }: { onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert tone="warning" title={t('errors.fileView.linkExpired')}>
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRefresh}>
        <RefreshCw className="size-4" aria-hidden="true" />
        {t('common.refresh')}
      </Button>
    </Alert>
  );
}

function Preview({ file, onMediaError }: { file: PublicFileDetails; onMediaError: () => void }) {
  const { t } = useTranslation();
  const named = namedPreviewKind(file.filename, usePreviewTypes());
  const src = resolveFileUrl(file.preview_url);
  const noPreview = (
    <EmptyState
      icon={file.inline_safe ? FileIcon : ShieldAlert}
      title={t('files.view.noPreview')}
      description={file.inline_safe ? t('files.view.noPreviewBody') : t('files.view.unsafeBody')}
      action={
        <Button asChild>
          <a href={resolveFileUrl(file.download_url)} download={file.filename}>
            <Download className="size-4" aria-hidden="true" />
            {t('files.view.download')}
          </a>
        </Button>
      }
    />
  );
  const fallback = <Skeleton className="h-[50dvh] w-full rounded-lg" />;
  // Archives are listed by the server (never unpacked); entries open one by one.
  if (archiveFormatOf(file.filename)) {
    return (
      <Suspense fallback={fallback}>
        <ShareArchivePreview slug={file.slug} token={file.access_token} />
      </Suspense>
    );
  }
  if (named === 'ebook')
    return (
      <Suspense fallback={fallback}>
        <EpubReader url={src} name={file.filename} />
      </Suspense>
    );
  // Only the playlist is shared here: its segments resolve to nothing, and the player says so.
  if (named === 'hls')
    return (
      <Suspense fallback={fallback}>
        <HlsVideo
          path={`/${file.filename}`}
          resolve={(p) => (p === `/${file.filename}` ? src : null)}
          single
          className="max-h-[75dvh] w-full rounded-lg border border-border bg-black"
        />
      </Suspense>
    );
  // Markdown and text are read as text and rendered by us, so they are safe whatever inline_safe says.
  switch (file.type) {
    case 'markdown':
      return (
        <Suspense fallback={fallback}>
          <MarkdownPreview src={src} onError={onMediaError} />
        </Suspense>
      );
    case 'text':
      if (TABLE_TEXT.test(file.filename)) {
        return (
          <Suspense fallback={fallback}>
            <BuiltinPreview url={src} name={file.filename} />
          </Suspense>
        );
      }
      return (
        <Suspense fallback={fallback}>
          <CodePreview src={src} filename={file.filename} onError={onMediaError} />
        </Suspense>
      );
    case 'office':
      return (
        <Suspense fallback={fallback}>
          <OfficePreview slug={file.slug} token={file.access_token} filename={file.filename} fallback={noPreview} />
        </Suspense>
      );
  }
  if (!file.inline_safe) return noPreview;
  return <MediaPreview kind={file.type} src={src} name={file.filename} onError={onMediaError} fallback={noPreview} />;
}

function Details({ file, onRefresh }: { file: PublicFileDetails; onRefresh: () => void }) {
  const { t, i18n } = useTranslation();
  // undefined until first opened: the dialog chunk loads then.
  const [qrOpen, setQrOpen] = useState<boolean | undefined>(undefined);
  // A preview that fails to load is either an expired short-lived link or a file the browser cannot
  // show: ask the server which (a 1-byte ranged read) so the message is right.
  const [mediaFailed, setMediaFailed] = useState<'expired' | 'unplayable' | null>(null);
  const previewUrl = resolveFileUrl(file.preview_url);
  const onMediaError = useCallback(() => {
    void fetch(previewUrl, { headers: { Range: 'bytes=0-0' } })
      .then((response) => setMediaFailed(response.ok ? 'unplayable' : 'expired'))
      .catch(() => setMediaFailed('expired'));
  }, [previewUrl]);
  const link = window.location.href.split('#')[0]!.split('?')[0]!;
  const Icon = KIND_ICONS[file.type] ?? FileIcon;
  const viewsLeft = file.max_views > 0 ? Math.max(0, file.max_views - file.views) : null;

  const copy = async () => {
    if (await copyText(link)) toast.success(t('files.view.linkCopied'));
    else toast.error(t('common.copyFailed'));
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-5" data-testid="file-details">
      <FileSummary
        icon={Icon}
        name={file.filename}
        details={[
          <span key="size">{formatBytes(file.size, i18n.language)}</span>,
          <span
            key="type"
            className="inline-block max-w-[14rem] truncate align-bottom font-mono text-xs"
            title={file.mimetype}
          >
            {file.mimetype}
          </span>,
          <span key="when" title={formatDateTime(file.created_at, i18n.language)}>
            {t('files.view.uploaded', { when: formatRelative(file.created_at, i18n.language) })}
          </span>,
        ]}
        badges={
          <>
            {file.expires_at && (
              <Badge tone="warning" title={formatDateTime(file.expires_at, i18n.language)}>
                <CalendarClock aria-hidden="true" />
                {t('files.view.expires', { when: formatRelative(file.expires_at, i18n.language) })}
              </Badge>
            )}
            {viewsLeft !== null && (
              <Badge tone="neutral">
                <Eye aria-hidden="true" />
                {t('files.view.viewsLeft', { count: viewsLeft })}
              </Badge>
            )}
          </>
        }
      >
        <div className="grid grid-cols-[1fr_auto_auto] gap-2 sm:flex sm:shrink-0">
          <Button asChild>
            <a href={resolveFileUrl(file.download_url)} download={file.filename} data-testid="download-link">
              <Download className="size-4" aria-hidden="true" />
              {t('files.view.download')}
            </a>
          </Button>
          <LinkButtons onCopy={() => void copy()} onQr={() => setQrOpen(true)} />
        </div>
      </FileSummary>

      {/* The owner's look is not counted and asks no password: say so, visitors differ. */}
      {file.is_owner && (file.max_views > 0 || file.has_password) && (
        <p className="text-xs text-muted-foreground" data-testid="owner-note">
          {t('files.view.ownerNote')}
        </p>
      )}

      {file.remark && (
        <p className="rounded-lg border border-border bg-surface-muted px-4 py-3 text-sm whitespace-pre-wrap">
          {file.remark}
        </p>
      )}

      {mediaFailed === 'expired' && <LinkExpired onRefresh={onRefresh} />}
      {mediaFailed === 'unplayable' && (
        <EmptyState
          icon={FileIcon}
          title={t('files.view.cannotPlay')}
          description={t('files.view.noPreviewBody')}
          action={
            <Button asChild>
              <a href={resolveFileUrl(file.download_url)} download={file.filename}>
                <Download className="size-4" aria-hidden="true" />
                {t('files.view.download')}
              </a>
            </Button>
          }
        />
      )}
      {!mediaFailed && <Preview file={file} onMediaError={onMediaError} />}

      {qrOpen !== undefined && (
        <Suspense fallback={null}>
          <QrDialog link={link} filename={file.filename} open={qrOpen} onOpenChange={setQrOpen} />
        </Suspense>
      )}
    </div>
  );
}

/** /file/{slug}: a shared file's preview, download, link and QR (spec §2, §8). */
export default function FileViewPage() {
  const { slug = '' } = useParams();
  const info = usePublicFile(slug);
  const { t } = useTranslation();
  const [unlocked, setUnlocked] = useState<PublicFileDetails | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [passwordError, setPasswordError] = useState<{ message: string; detail?: string } | undefined>();
  const [verifyFailure, setVerifyFailure] = useState<unknown>(null);
  const [lastPassword, setLastPassword] = useState<string | null>(null);

  const verify = async (password: string) => {
    setVerifying(true);
    setPasswordError(undefined);
    try {
      setUnlocked(await verifyFilePassword(slug, password));
      setLastPassword(password);
    } catch (error) {
      const kind = fileErrorKind(error);
      if (kind === 'unauthorized')
        setPasswordError({ message: t('errors.fileView.wrongPasswordRetry'), detail: serverDetail(error) });
      else if (kind === 'forbidden' || kind === 'notFound' || kind === 'gone') setVerifyFailure(error);
      else toast.error(errorMessage(error));
    } finally {
      setVerifying(false);
    }
  };

  // Fresh short-lived URLs: verify again (password shares) or fetch the metadata again.
  const refresh = () => {
    if (lastPassword !== null) void verify(lastPassword);
    else void info.refetch();
  };

  if (!slug) return <FileErrorState kind="missingId" />;
  if (verifyFailure) return <FileErrorState kind={fileErrorKind(verifyFailure)} detail={serverDetail(verifyFailure)} />;
  if (unlocked) return <Details key={unlocked.access_token} file={unlocked} onRefresh={refresh} />;
  if (info.isPending) return <PageSkeleton />;
  if (info.isError) {
    const kind = fileErrorKind(info.error);
    return <FileErrorState kind={kind} detail={serverDetail(info.error)} onRetry={() => void info.refetch()} />;
  }
  if (info.data.requires_password) {
    return (
      <PasswordPrompt
        onSubmit={(password) => void verify(password)}
        busy={verifying}
        error={passwordError?.message}
        detail={passwordError?.detail}
      />
    );
  }
  if (info.data.encryption) {
    return (
      <Suspense fallback={<PageSkeleton />}>
        <EncryptedFile key={info.data.access_token} file={info.data} />
      </Suspense>
    );
  }
  return <Details key={info.data.access_token} file={info.data} onRefresh={refresh} />;
}
