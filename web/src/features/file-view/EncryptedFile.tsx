/**
 * An end-to-end encrypted file share (docs/encryption.md): the header (name, type, size) is decrypted from a
 * ranged read, previewable types are decrypted into a Blob and shown, and the download decrypts as a stream.
 * Loaded lazily, only for encrypted shares. Nothing undecryptable is ever shown or saved.
 */
import type { PublicFileDetails } from '@clipnest/contract';
import { fileKindOf } from '@clipnest/contract/file-kinds';
import { Download, FileLock2, ShieldAlert, ShieldCheck } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Progress } from '../../components/ui/progress';
import { Skeleton } from '../../components/ui/skeleton';
import { formatBytes } from '../../lib/format';
import { isE2eeError, parseLinkKey, type E2eeErrorCode, type FileHeader } from '../../lib/e2ee';
import {
  decryptToBlob,
  decryptToFile,
  E2EE_AUTO_PREVIEW_LIMIT,
  E2EE_BLOB_LIMIT,
  fileSystemAccess,
  readHeader,
} from './encryptedDownload';
import { downloadBlob } from '../../lib/downloadBlob';
import { FileSummary } from './FileSummary';
import { PasswordPrompt } from './PasswordPrompt';
import { MediaPreview } from './previews/MediaPreview';

const MarkdownView = lazy(() => import('../../components/markdown').then((m) => ({ default: m.MarkdownView })));

type Failure = E2eeErrorCode | 'network';

function codeOf(error: unknown): Failure {
  return isE2eeError(error) ? error.code : 'network';
}

function Failed({ code }: { code: Failure }) {
  const { t } = useTranslation();
  return (
    <section
      role="alert"
      data-testid={`file-e2ee-${code}`}
      className="mx-auto flex w-full max-w-lg flex-col items-center rounded-2xl border border-border bg-surface p-8 text-center shadow-sm"
    >
      <div className="grid size-12 place-items-center rounded-full bg-destructive-soft text-destructive-soft-foreground">
        <ShieldAlert className="size-6" aria-hidden="true" />
      </div>
      <h1 className="mt-4 text-xl font-semibold tracking-tight">{t(`files.view.e2ee.${code}Title`)}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{t(`files.view.e2ee.${code}Body`)}</p>
    </section>
  );
}

function DecryptedPreview({ blob, header }: { blob: Blob; header: FileHeader }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const [text, setText] = useState<string | null>(null);
  const kind = fileKindOf(header.name, header.type);
  useEffect(() => {
    if (kind === 'markdown' || kind === 'text') void blob.text().then(setText);
  }, [blob, kind]);
  switch (kind) {
    case 'markdown':
      return text === null ? null : (
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <div className="rounded-xl border border-border bg-surface p-4 sm:p-8">
            <MarkdownView source={text} />
          </div>
        </Suspense>
      );
    case 'text':
      return text === null ? null : (
        <pre
          className="max-h-[75dvh] overflow-auto rounded-xl border border-border bg-surface p-4 font-mono text-[13px] whitespace-pre-wrap break-words"
          data-testid="e2ee-text"
        >
          {text}
        </pre>
      );
    default:
      return <MediaPreview kind={kind} src={url} name={header.name} />;
  }
}

type Stage =
  | { kind: 'password'; error?: string; busy: boolean }
  | { kind: 'header' }
  | { kind: 'ready'; header: FileHeader }
  | { kind: 'failed'; code: Failure };

export default function EncryptedFile({ file }: { file: PublicFileDetails }) {
  const { t, i18n } = useTranslation();
  const fragment = window.location.hash;
  const [password, setPassword] = useState<string | undefined>();
  const [stage, setStage] = useState<Stage>(() => {
    try {
      parseLinkKey(fragment);
    } catch (error) {
      return { kind: 'failed', code: codeOf(error) };
    }
    return file.encryption!.kdf !== 'none' ? { kind: 'password', busy: false } : { kind: 'header' };
  });
  const [progress, setProgress] = useState<number | null>(null);
  const [decrypted, setDecrypted] = useState<{ blob: Blob; header: FileHeader } | null>(null);
  const [downloadError, setDownloadError] = useState<Failure | 'tooLarge' | null>(null);

  /** Previewable types are decrypted at once (below the auto-preview limit). */
  async function preview(header: FileHeader, pw?: string) {
    const kind = fileKindOf(header.name, header.type);
    if (kind === 'other' || kind === 'office' || header.size > E2EE_AUTO_PREVIEW_LIMIT) return;
    setProgress(0);
    try {
      setDecrypted(await decryptToBlob(file, fragment, pw, setProgress));
    } catch (error) {
      setDownloadError(codeOf(error));
    } finally {
      setProgress(null);
    }
  }

  /** Reads and decrypts the header: the key (and password) are right, or the page says why not. */
  function open(pw?: string) {
    void readHeader(file, fragment, pw).then(
      (header) => {
        setPassword(pw);
        setStage({ kind: 'ready', header });
        void preview(header, pw);
      },
      (error: unknown) => {
        const code = codeOf(error);
        if (pw !== undefined && code === 'wrong_key') {
          setStage({ kind: 'password', error: t('files.view.e2ee.wrongPassword'), busy: false });
        } else setStage({ kind: 'failed', code });
      },
    );
  }

  useEffect(() => {
    if (stage.kind === 'header') open();
    // Once per share (the page keys this component by its access token).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [file]);

  async function download(header: FileHeader) {
    setDownloadError(null);
    if (decrypted) {
      downloadBlob(decrypted.blob, header.name);
      return;
    }
    setProgress(0);
    try {
      const picker = fileSystemAccess();
      if (picker) {
        await decryptToFile(picker, file, fragment, password, header.name, setProgress);
      } else if (header.size > E2EE_BLOB_LIMIT) {
        setDownloadError('tooLarge');
      } else {
        const result = await decryptToBlob(file, fragment, password, setProgress);
        downloadBlob(result.blob, header.name);
      }
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setDownloadError(codeOf(error));
    } finally {
      setProgress(null);
    }
  }

  if (stage.kind === 'failed') return <Failed code={stage.code} />;
  if (stage.kind === 'password') {
    return (
      <PasswordPrompt
        busy={stage.busy}
        error={stage.error}
        onSubmit={(pw) => {
          setStage({ kind: 'password', busy: true });
          open(pw);
        }}
      />
    );
  }
  if (stage.kind === 'header') {
    return (
      <div className="mx-auto w-full max-w-5xl" aria-busy="true">
        <Skeleton className="h-28 w-full rounded-xl" />
        <p className="mt-3 text-center text-sm text-muted-foreground">{t('files.view.e2ee.decrypting')}</p>
      </div>
    );
  }
  const { header } = stage;
  const percent = progress === null ? null : Math.min(100, (progress / Math.max(1, file.size)) * 100);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-5" data-testid="file-details">
      <FileSummary
        icon={FileLock2}
        name={header.name}
        details={[
          <span key="size">{formatBytes(header.size, i18n.language)}</span>,
          ...(header.type
            ? [
                <span key="type" className="font-mono text-xs">
                  {header.type}
                </span>,
              ]
            : []),
        ]}
        badges={
          <Badge tone="success" data-testid="file-encrypted">
            <ShieldCheck aria-hidden="true" />
            {t('files.view.e2ee.badge')}
          </Badge>
        }
      >
        <Button onClick={() => void download(header)} loading={progress !== null} data-testid="e2ee-download">
          <Download className="size-4" aria-hidden="true" />
          {t('files.view.e2ee.download')}
        </Button>
      </FileSummary>
      {percent !== null && (
        <div className="flex flex-col gap-1.5" data-testid="e2ee-progress">
          <Progress value={percent} label={t('files.view.e2ee.decrypting')} />
          <p className="text-xs text-muted-foreground">
            {t('files.view.e2ee.progress', { percent: Math.floor(percent) })}
          </p>
        </div>
      )}
      {downloadError && (
        <Alert tone="danger" title={t(`files.view.e2ee.${downloadError}Title`)}>
          {t(`files.view.e2ee.${downloadError}Body`)}
        </Alert>
      )}
      <p className="text-xs text-muted-foreground">{t('files.view.e2ee.serverCannot')}</p>
      {decrypted && <DecryptedPreview blob={decrypted.blob} header={decrypted.header} />}
    </div>
  );
}
