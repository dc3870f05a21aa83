import type { PublicShareInfo, ShareEntryView } from '@clipnest/contract';
import { fileKindOf } from '@clipnest/contract/file-kinds';
import {
  ArrowLeft,
  CalendarClock,
  ChevronRight,
  Download,
  File as FileIcon,
  FileArchive,
  Folder,
  FolderOpen,
  LayoutGrid,
  List as ListIcon,
  ShieldAlert,
} from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useParams } from 'wouter';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { serverDetail } from '../../components/ui/error-details';
import { Skeleton } from '../../components/ui/skeleton';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format';
import { withTextAreas } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { useSearchParams } from '../../lib/navigation';
import { useTranslation } from '../../lib/useTranslation';
import { fileErrorKind } from './api';
import { FileErrorState } from './FileErrorState';
import { PasswordGate } from './PasswordGate';
import { MediaPreview } from './previews/MediaPreview';
import { builtinFormatOf } from '../../components/preview/builtin/formats';
import { EpubReader, HlsVideo, SubtitledVideo } from '../../components/preview/lazyPreviews';
import { subtitlesFor } from '../../components/preview/subtitles/subtitles';
import { parseExtensionList } from '@clipnest/contract/preview-types';
import { namedPreviewKind, usePreviewTypes } from '../../lib/previewTypes';
import { fetchShareInfo, shareContentUrl, useShareInfo, useShareListing } from './shareApi';
import { LinkButtons } from './LinkButtons';

const CodePreview = lazy(() =>
  withTextAreas(['preview'], () => import('./previews/TextPreview')).then((m) => ({ default: m.CodePreview })),
);
const MarkdownPreview = lazy(() => import('./previews/TextPreview').then((m) => ({ default: m.MarkdownPreview })));
const BuiltinPreview = lazy(() =>
  withTextAreas(['preview'], () => import('../../components/preview/builtin/BuiltinPreview')).then((m) => ({
    default: m.BuiltinPreview,
  })),
);
const QrDialog = lazy(() => import('./QrDialog'));

type View = 'list' | 'grid';

function parentOf(path: string): string {
  const cut = path.replace(/\/+$/, '').lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

function Crumbs({ name, path, onOpen }: { name: string; path: string; onOpen: (path: string) => void }) {
  const { t } = useTranslation();
  const parts = path.split('/').filter(Boolean);
  const crumbs = [
    { label: name, path: '/' },
    ...parts.map((p, i) => ({ label: p, path: `/${parts.slice(0, i + 1).join('/')}` })),
  ];
  return (
    <nav aria-label={t('files.share.breadcrumbs')} className="min-w-0" data-testid="share-breadcrumbs">
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        {crumbs.map((c, i) => (
          <li key={c.path} className="flex min-w-0 items-center gap-1">
            {i > 0 && <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />}
            {i === crumbs.length - 1 ? (
              <span className="truncate font-medium" aria-current="page">
                {c.label}
              </span>
            ) : (
              <button
                type="button"
                className="truncate rounded px-1 text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                onClick={() => onOpen(c.path)}
              >
                {c.label}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function FilePreview({
  slug,
  token,
  entry,
  siblings,
}: {
  slug: string;
  token: string | undefined;
  entry: ShareEntryView;
  siblings: ShareEntryView[];
}) {
  const { t } = useTranslation();
  const lists = usePreviewTypes();
  const named = namedPreviewKind(entry.name, lists);
  const [failed, setFailed] = useState(false);
  const src = shareContentUrl(slug, 'file', entry.path, token);
  const download = shareContentUrl(slug, 'file', entry.path, token, true);
  const kind = fileKindOf(entry.name, entry.mimetype ?? 'application/octet-stream');
  const noPreview = (
    <EmptyState
      icon={failed ? ShieldAlert : FileIcon}
      title={t('files.view.noPreview')}
      description={t('files.view.noPreviewBody')}
      action={
        <Button asChild>
          <a href={download} download={entry.name}>
            <Download className="size-4" aria-hidden="true" />
            {t('files.view.download')}
          </a>
        </Button>
      }
    />
  );
  if (failed) return noPreview;
  const fallback = <Skeleton className="h-[50dvh] w-full rounded-lg" />;
  const onError = () => setFailed(true);
  if (named === 'ebook')
    return (
      <Suspense fallback={fallback}>
        <EpubReader url={src} name={entry.name} />
      </Suspense>
    );
  if (named === 'hls')
    return (
      <Suspense fallback={fallback}>
        <HlsVideo
          path={entry.path}
          resolve={(p) => shareContentUrl(slug, 'file', p, token)}
          className="max-h-[75dvh] w-full rounded-lg border border-border bg-black"
        />
      </Suspense>
    );
  if (kind === 'video') {
    // Subtitles of the same name in the same folder (name.srt, name.en.vtt) are offered as tracks.
    const folder = entry.path.slice(0, entry.path.lastIndexOf('/') + 1);
    const subtitles = subtitlesFor(
      entry.name,
      siblings.filter((e) => !e.isDirectory && e.path === folder + e.name).map((e) => e.name),
      parseExtensionList(lists.preview_subtitle_types),
    );
    if (subtitles.length > 0)
      return (
        <Suspense fallback={fallback}>
          <SubtitledVideo
            src={src}
            onError={onError}
            className="max-h-[75dvh] w-full rounded-lg border border-border bg-black"
            subtitles={subtitles.map((s) => ({
              ...s,
              read: async (signal) => {
                const response = await fetch(shareContentUrl(slug, 'file', folder + s.name, token), { signal });
                if (!response.ok) throw new Error(`HTTP ${response.status}`);
                return response.text();
              },
            }))}
          />
        </Suspense>
      );
  }
  if (kind === 'markdown')
    return (
      <Suspense fallback={fallback}>
        <MarkdownPreview src={src} onError={onError} />
      </Suspense>
    );
  // Office documents, spreadsheets and CSV: rendered in the page from our own origin, never a third party.
  if (builtinFormatOf(entry.name))
    return (
      <Suspense fallback={fallback}>
        <BuiltinPreview url={src} name={entry.name} fallback={noPreview} />
      </Suspense>
    );
  if (kind === 'text')
    return (
      <Suspense fallback={fallback}>
        <CodePreview src={src} filename={entry.name} onError={onError} />
      </Suspense>
    );
  return <MediaPreview kind={kind} src={src} name={entry.name} onError={onError} fallback={noPreview} />;
}

function Entries({
  items,
  view,
  onOpen,
}: {
  items: ShareEntryView[];
  view: View;
  onOpen: (entry: ShareEntryView) => void;
}) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <EmptyState icon={FolderOpen} title={t('files.share.empty')} />;
  if (view === 'grid') {
    return (
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" data-testid="share-entries">
        {items.map((e) => {
          const Icon = e.isDirectory ? Folder : FileIcon;
          return (
            <li key={e.path}>
              <button
                type="button"
                onClick={() => onOpen(e)}
                className="flex min-h-28 w-full flex-col items-center gap-2 rounded-lg border border-border bg-surface p-3 text-center hover:bg-surface-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <Icon
                  className={`size-10 ${e.isDirectory ? 'text-primary' : 'text-muted-foreground'}`}
                  aria-hidden="true"
                />
                <span className="line-clamp-2 text-sm break-all">{e.name}</span>
                {!e.isDirectory && (
                  <span className="text-xs text-muted-foreground">{formatBytes(e.size, i18n.language)}</span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <ul className="divide-y divide-border rounded-lg border border-border bg-surface" data-testid="share-entries">
      {items.map((e) => {
        const Icon = e.isDirectory ? Folder : FileIcon;
        return (
          <li key={e.path}>
            <button
              type="button"
              onClick={() => onOpen(e)}
              className="flex min-h-12 w-full items-center gap-3 px-4 py-2 text-left hover:bg-surface-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none focus-visible:ring-inset"
            >
              <Icon
                className={`size-5 shrink-0 ${e.isDirectory ? 'text-primary' : 'text-muted-foreground'}`}
                aria-hidden="true"
              />
              <span className="min-w-0 flex-1 truncate">{e.name}</span>
              {!e.isDirectory && (
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                  {formatBytes(e.size, i18n.language)}
                </span>
              )}
              {e.modified && (
                <span className="hidden shrink-0 text-xs text-muted-foreground sm:inline">
                  {formatDateTime(e.modified, i18n.language)}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function Browser({ slug, info, token }: { slug: string; info: PublicShareInfo; token: string | undefined }) {
  const { t, i18n } = useTranslation();
  // The folder and the previewed file live in the address, so the phone's back button goes back a folder.
  const [params, setParams] = useSearchParams();
  const path = params.get('path') || '/';
  const filePath = params.get('file');
  const [view, setView] = useState<View>('list');
  const [qrOpen, setQrOpen] = useState<boolean | undefined>(undefined);
  const listing = useShareListing(slug, path, token ?? '');
  const file = (filePath && listing.data?.items.find((e) => e.path === filePath && !e.isDirectory)) || null;
  const link = window.location.href.split('#')[0]!.split('?')[0]!;
  const left = info.max_downloads > 0 ? Math.max(0, info.max_downloads - info.downloads) : null;
  const open = (p: string) => setParams(p === '/' ? {} : { path: p });
  const preview = (e: ShareEntryView) => setParams({ ...(path === '/' ? {} : { path }), file: e.path });
  const copy = async () => {
    if (await copyText(link)) toast.success(t('files.view.linkCopied'));
    else toast.error(t('common.copyFailed'));
  };

  if (listing.isError) {
    return (
      <FileErrorState
        kind={fileErrorKind(listing.error)}
        detail={serverDetail(listing.error)}
        onRetry={() => void listing.refetch()}
      />
    );
  }
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4" data-testid="share-view">
      <section className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:items-center sm:p-5">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <div className="grid size-12 shrink-0 place-items-center rounded-xl bg-primary-soft text-primary-soft-foreground">
            <FolderOpen className="size-6" aria-hidden="true" />
          </div>
          <div className="min-w-0">
            <h1 className="truncate text-lg font-semibold">{info.name}</h1>
            <div className="mt-1 flex flex-wrap gap-2">
              {info.expires_at && (
                <Badge tone="warning" title={formatDateTime(info.expires_at, i18n.language)}>
                  <CalendarClock aria-hidden="true" />
                  {t('files.view.expires', { when: formatRelative(info.expires_at, i18n.language) })}
                </Badge>
              )}
              {left !== null && <Badge tone="neutral">{t('files.share.downloadsLeft', { count: left })}</Badge>}
            </div>
          </div>
        </div>
        <div className="grid grid-cols-[1fr_auto_auto] gap-2 sm:flex sm:shrink-0">
          <Button asChild>
            <a href={shareContentUrl(slug, 'zip', path, token)} data-testid="share-zip">
              <FileArchive className="size-4" aria-hidden="true" />
              {t('files.share.downloadAll')}
            </a>
          </Button>
          <LinkButtons onCopy={() => void copy()} onQr={() => setQrOpen(true)} />
        </div>
      </section>
      {info.remark && (
        <p className="rounded-lg border border-border bg-surface-muted px-4 py-3 text-sm whitespace-pre-wrap">
          {info.remark}
        </p>
      )}
      <div className="flex items-center justify-between gap-2">
        <Crumbs name={info.name} path={file ? file.path : path} onOpen={open} />
        {!file && (
          <div className="flex shrink-0 gap-1" role="group" aria-label={t('files.share.viewMode')}>
            <Button
              variant={view === 'list' ? 'secondary' : 'ghost'}
              size="sm"
              aria-label={t('files.share.list')}
              aria-pressed={view === 'list'}
              onClick={() => setView('list')}
            >
              <ListIcon className="size-4" aria-hidden="true" />
            </Button>
            <Button
              variant={view === 'grid' ? 'secondary' : 'ghost'}
              size="sm"
              aria-label={t('files.share.grid')}
              aria-pressed={view === 'grid'}
              onClick={() => setView('grid')}
            >
              <LayoutGrid className="size-4" aria-hidden="true" />
            </Button>
          </div>
        )}
      </div>
      {file ? (
        <div className="flex flex-col gap-3" data-testid="share-file">
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" size="sm" onClick={() => open(path)} aria-label={t('files.share.back')}>
              <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden="true" />
              <span className="hidden sm:inline">{t('files.share.back')}</span>
            </Button>
            <span className="min-w-0 flex-1 text-sm whitespace-nowrap text-muted-foreground tabular-nums">
              {formatBytes(file.size, i18n.language)}
            </span>
            <Button asChild size="sm">
              <a
                href={shareContentUrl(slug, 'file', file.path, token, true)}
                download={file.name}
                data-testid="share-download"
              >
                <Download className="size-4" aria-hidden="true" />
                {t('files.view.download')}
              </a>
            </Button>
          </div>
          <FilePreview key={file.path} slug={slug} token={token} entry={file} siblings={listing.data?.items ?? []} />
        </div>
      ) : listing.isPending ? (
        <div className="flex flex-col gap-2" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12 w-full rounded-lg" />
          ))}
        </div>
      ) : (
        <>
          {path !== '/' && (
            <Button variant="ghost" size="sm" className="self-start" onClick={() => open(parentOf(path))}>
              <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden="true" />
              {t('files.share.up')}
            </Button>
          )}
          <Entries items={listing.data.items} view={view} onOpen={(e) => (e.isDirectory ? open(e.path) : preview(e))} />
        </>
      )}
      {qrOpen !== undefined && (
        <Suspense fallback={null}>
          <QrDialog link={link} filename={info.name} open={qrOpen} onOpenChange={setQrOpen} />
        </Suspense>
      )}
    </div>
  );
}

/** /s/{slug}: a shared folder, browsed without logging in. */
export default function ShareViewPage() {
  const { slug = '' } = useParams();
  const { t } = useTranslation();
  const info = useShareInfo(slug);
  const [unlocked, setUnlocked] = useState<PublicShareInfo | null>(null);

  if (!slug) return <FileErrorState kind="missingId" />;
  if (unlocked) return <Browser slug={slug} info={unlocked} token={unlocked.access_token} />;
  return (
    <PasswordGate
      info={info}
      loading={
        <div className="mx-auto flex w-full max-w-5xl flex-col gap-4" aria-busy="true">
          <Skeleton className="h-24 w-full rounded-xl" />
          <Skeleton className="h-[40dvh] w-full rounded-xl" />
        </div>
      }
      texts={{
        title: t('files.share.passwordTitle'),
        body: t('files.share.passwordBody'),
        submit: t('files.share.unlock'),
      }}
      attempt={async (password) => setUnlocked(await fetchShareInfo(slug, password))}
    >
      {(data) => <Browser slug={slug} info={data} token={data.access_token} />}
    </PasswordGate>
  );
}
