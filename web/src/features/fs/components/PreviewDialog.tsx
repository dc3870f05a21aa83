import type { FsEntryView, OfficePreviewResult } from '@clipnest/contract';
import { archiveFormatOf } from '@clipnest/contract/archives';
import { FS_UPDATE_MAX_BYTES } from '@clipnest/contract/fs-limits';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { withTextAreas } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { Alert } from '../../../components/ui/alert';
import { OfficeViewerFrame, officeProviderName } from '../../../components/preview/OfficeViewerFrame';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, apiUrl, errorMessage, getApiBaseUrl } from '../../../lib/api';
import { authorizationHeader, getSession } from '../../../lib/auth';
import { EpubReader, HlsVideo, SubtitledVideo } from '../../../components/preview/lazyPreviews';
import { subtitlesFor } from '../../../components/preview/subtitles/subtitles';
import { parseExtensionList } from '@clipnest/contract/preview-types';
import { namedPreviewKind, usePreviewTypes } from '../../../lib/previewTypes';
import { formatBytes } from '../../../lib/format';
import { ImagePreview } from '../../../components/preview/ImagePreview';
import { fileLink, fsFetch, useUpdateText } from '../api';
import { entryKind, isEditable } from '../kinds';
import { ArchivePreview } from './ArchivePreview';
import { TablePreview } from './TablePreview';

const TABLE_NAME = /\.(csv|tsv)$/i;

// The built-in office renderers (docx-preview, SheetJS in a worker, jszip): loaded only when one is opened.
const BuiltinPreview = lazy(() =>
  withTextAreas(['preview'], () => import('../../../components/preview/builtin/BuiltinPreview')).then((m) => ({
    default: m.BuiltinPreview,
  })),
);

async function readText(path: string, signal: AbortSignal): Promise<string> {
  return (await fsFetch('/fs/download', { path }, signal)).text();
}

/** Ctrl+S, or ⌘S on a Mac. */
export function isSaveShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>) {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's';
}

/**
 * The editor for text files: loads through fs/download, saves through fs/update (10 MB at most) with the
 * button or Ctrl/⌘+S. Tells the dialog whether there are unsaved changes, so closing asks first.
 */
function TextEditor({
  entry,
  canSave,
  onSaved,
  onDirtyChange,
  onEscape,
}: {
  entry: FsEntryView;
  canSave: boolean;
  onSaved: () => void;
  onDirtyChange: (dirty: boolean) => void;
  onEscape: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const textKey = ['fs', 'text', entry.path, entry.etag ?? entry.modified ?? ''];
  const text = useQuery({
    queryKey: textKey,
    queryFn: ({ signal }) => readText(entry.path, signal),
    retry: false,
  });
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateText();
  const value = draft ?? text.data ?? '';
  const tooLarge = new Blob([value]).size > FS_UPDATE_MAX_BYTES;
  const dirty = draft !== null && draft !== text.data;

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);
  // Leaving the page (reload, closing the tab) with unsaved changes asks too.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  async function save() {
    if (!canSave || !dirty || tooLarge || update.isPending) return;
    try {
      await update.mutateAsync({ path: entry.path, content: value });
      toast.success(t('fs.explorer.saved', { name: entry.name }));
      // What was saved is now the file's text: no flash of the old text before the list refresh reloads it.
      queryClient.setQueryData(textKey, value);
      setDraft(null);
      onSaved();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  if (text.isPending) return <Skeleton className="h-64 w-full" />;
  if (text.isError) return <Alert tone="danger">{errorMessage(text.error)}</Alert>;
  return (
    <div
      className="flex flex-col gap-3"
      onKeyDown={(event) => {
        // Esc the dialog library let through (it prevents the default of one it handled): a layer it still
        // counts above this dialog (a confirmation just closed) must not leave Esc without an answer.
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          onEscape();
          return;
        }
        if (!isSaveShortcut(event.nativeEvent)) return;
        // Never the browser's "save page as", wherever the focus is in the editor.
        event.preventDefault();
        void save();
      }}
    >
      <Textarea
        aria-label={t('fs.explorer.editorLabel', { name: entry.name })}
        data-testid="fs-editor"
        className="min-h-[50dvh] font-mono text-[13px]"
        spellCheck={false}
        readOnly={!canSave}
        value={value}
        onChange={(e) => {
          setDraft(e.target.value);
          // Told at once, not from an effect: an Esc pressed right after typing must already ask.
          onDirtyChange(e.target.value !== text.data);
        }}
      />
      {tooLarge && <Alert tone="danger">{t('errors.editor.tooLarge')}</Alert>}
      {canSave && (
        <div className="flex flex-wrap items-center justify-end gap-3">
          <span className="me-auto text-xs text-muted-foreground" data-testid="fs-editor-state">
            {dirty ? (
              <span className="font-medium text-warning-soft-foreground">{t('fs.explorer.unsavedBadge')}</span>
            ) : (
              t('fs.explorer.saveHint')
            )}
          </span>
          <Button onClick={() => void save()} loading={update.isPending} disabled={!dirty || tooLarge}>
            {t('common.save')}
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * The image frame's height in the preview dialog: the dialog's own limit (88dvh) less its header with the size
 * line, the footer, the body's padding and the zoom bar (about 14.5rem with phone-sized buttons).
 */
const DIALOG_IMAGE_MAX_HEIGHT = 'max(12rem, calc(88dvh - 14.5rem))';

/**
 * An office document (.docx, .xlsx, .pptx…) as the file page shows a shared one: rendered in the page (built
 * in), or the viewer of the preview settings (Microsoft or Google) in a frame, around a short-lived link to
 * the file (GET /fs/office-preview).
 */
function OfficeFramePreview({ entry }: { entry: FsEntryView }) {
  const { t } = useTranslation();
  const preview = useQuery({
    queryKey: ['fs', 'office', entry.path, entry.etag ?? entry.modified ?? ''],
    queryFn: ({ signal }) =>
      api.get<OfficePreviewResult>('/fs/office-preview', { signal, query: { path: entry.path } }),
    retry: false,
    staleTime: 5 * 60 * 1000,
  });
  if (preview.isPending) return <Skeleton className="h-64 w-full" />;
  if (preview.isError) return <Alert tone="warning">{errorMessage(preview.error)}</Alert>;
  if (preview.data.provider === 'builtin') {
    return (
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <BuiltinPreview url={`${getApiBaseUrl()}${preview.data.url}`} name={entry.name} />
      </Suspense>
    );
  }
  return (
    <OfficeViewerFrame
      url={preview.data.url}
      title={t('fs.explorer.officeTitle', { name: entry.name })}
      note={t('fs.explorer.officeNote', { provider: officeProviderName(preview.data.provider) })}
      className="h-[max(12rem,calc(88dvh-13rem))]"
      testId="fs-office-preview"
    />
  );
}

/** A file's bytes through our own server (fs/download), never a storage's link on another origin. */
function downloadUrl(path: string): string {
  return `${apiUrl('/fs/download')}?${new URLSearchParams({ path })}`;
}

function parentPath(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

const VIDEO_CLASS = 'max-h-[max(12rem,calc(88dvh-12rem))] w-full rounded-lg bg-black';

function MediaPreview({ entry, siblings }: { entry: FsEntryView; siblings: FsEntryView[] }) {
  const { t } = useTranslation();
  const kind = entryKind(entry);
  const lists = usePreviewTypes();
  const link = useQuery({
    queryKey: ['fs', 'link', entry.path, entry.etag ?? entry.modified ?? ''],
    queryFn: () => fileLink(entry.path),
    staleTime: 30 * 60 * 1000,
  });
  const [failed, setFailed] = useState(false);
  if (link.isPending) return <Skeleton className="h-64 w-full" />;
  if (link.isError || failed) return <Alert tone="danger">{t('fs.explorer.previewFailed')}</Alert>;
  const src = link.data.url;
  if (kind === 'image')
    return (
      <ImagePreview src={src} alt={entry.name} onError={() => setFailed(true)} maxHeight={DIALOG_IMAGE_MAX_HEIGHT} />
    );
  if (kind === 'video') {
    // name.srt, name.en.vtt… beside the video: offered as its tracks.
    const folder = parentPath(entry.path);
    const subtitles = subtitlesFor(
      entry.name,
      siblings.filter((e) => !e.isDirectory && parentPath(e.path) === folder).map((e) => e.name),
      parseExtensionList(lists.preview_subtitle_types),
    );
    if (subtitles.length === 0) return <video src={src} controls className={VIDEO_CLASS} />;
    return (
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <SubtitledVideo
          src={src}
          className={VIDEO_CLASS}
          onError={() => setFailed(true)}
          subtitles={subtitles.map((s) => ({
            ...s,
            read: async (signal) => (await fsFetch('/fs/download', { path: folder + s.name }, signal)).text(),
          }))}
        />
      </Suspense>
    );
  }
  if (kind === 'audio') return <audio src={src} controls className="w-full" />;
  if (kind === 'pdf')
    return (
      <iframe src={src} title={entry.name} className="h-[max(12rem,calc(88dvh-12rem))] w-full rounded-lg border" />
    );
  return <p className="text-sm text-muted-foreground">{t('fs.explorer.noPreview')}</p>;
}

/** E-books and HLS playlists (by the preview settings' lists), read through fs/download with the session. */
function NamedPreview({ entry, kind }: { entry: FsEntryView; kind: 'ebook' | 'hls' }) {
  const authorization = authorizationHeader(getSession()) ?? undefined;
  return (
    <Suspense fallback={<Skeleton className="h-64 w-full" />}>
      {kind === 'ebook' ? (
        <EpubReader
          url={downloadUrl(entry.path)}
          name={entry.name}
          init={authorization ? { headers: { Authorization: authorization } } : undefined}
        />
      ) : (
        <HlsVideo path={entry.path} resolve={downloadUrl} authorization={authorization} className={VIDEO_CLASS} />
      )}
    </Suspense>
  );
}

/** `?preview=` of the explorer: the file view's previewers, and the editor for text files. */
export function PreviewDialog({
  entry,
  siblings = [],
  canEdit,
  onClose,
  onDownload,
  onSaved,
}: {
  entry: FsEntryView | null;
  /** The entries of the folder it is in (subtitles beside a video). */
  siblings?: FsEntryView[];
  canEdit: boolean;
  onClose: () => void;
  onDownload: (entry: FsEntryView) => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lists = usePreviewTypes();
  const named = entry && !entry.isDirectory ? namedPreviewKind(entry.name, lists) : null;
  // A ref, not state: the dialog library keeps its close handler from an earlier render (refreshed in an
  // effect), so an Esc right after typing must still read whether there are unsaved edits now.
  const dirty = useRef(false);
  const setDirty = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);
  const [confirming, setConfirming] = useState(false);
  // Esc, × and a click outside all end here: with unsaved edits, ask before they are thrown away.
  const requestClose = () => {
    if (dirty.current) setConfirming(true);
    else onClose();
  };
  return (
    <>
      <Dialog open={entry !== null} onOpenChange={(open) => !open && requestClose()}>
        {entry && (
          <DialogContent
            className="sm:max-w-4xl"
            title={<span className="break-all">{entry.name}</span>}
            description={formatBytes(entry.size, i18n.language)}
            footer={
              <Button variant="secondary" onClick={() => onDownload(entry)}>
                <Download className="size-4" aria-hidden="true" />
                {t('fs.explorer.download')}
              </Button>
            }
          >
            {named === 'ebook' || named === 'hls' ? (
              <NamedPreview key={entry.path} entry={entry} kind={named} />
            ) : TABLE_NAME.test(entry.name) && !entry.isDirectory ? (
              <TablePreview
                key={entry.path}
                entry={entry}
                editor={
                  isEditable(entry) ? (
                    <TextEditor
                      entry={entry}
                      canSave={canEdit}
                      onSaved={onSaved}
                      onDirtyChange={setDirty}
                      onEscape={requestClose}
                    />
                  ) : null
                }
              />
            ) : isEditable(entry) ? (
              <TextEditor
                key={entry.path}
                entry={entry}
                canSave={canEdit}
                onSaved={onSaved}
                onDirtyChange={setDirty}
                onEscape={requestClose}
              />
            ) : archiveFormatOf(entry.name) && !entry.isDirectory ? (
              <ArchivePreview key={entry.path} entry={entry} />
            ) : entryKind(entry) === 'office' ? (
              <OfficeFramePreview key={entry.path} entry={entry} />
            ) : (
              <MediaPreview key={entry.path} entry={entry} siblings={siblings} />
            )}
          </DialogContent>
        )}
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('fs.explorer.unsavedTitle', { name: entry?.name ?? '' })}
        description={t('fs.explorer.unsavedBody')}
        confirmLabel={t('fs.explorer.unsavedDiscard')}
        onConfirm={() => {
          setConfirming(false);
          setDirty(false);
          onClose();
        }}
      />
    </>
  );
}
