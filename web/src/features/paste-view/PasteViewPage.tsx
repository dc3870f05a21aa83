import type { PasteView } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { Copy, FileCode2, Link2, Pencil, QrCode as QrIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { useParams } from 'wouter';
import { toast } from '../../lib/toast';
import { loadMarkdownRuntime, MarkdownView } from '../../components/markdown';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { serverDetail } from '../../components/ui/error-details';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatDateTime, formatRelative } from '../../lib/format';
import { PasteFullState, PasteSkeleton, PasswordPrompt } from './PasteStates';
import { OfflineCopyNotice } from '../../components/OfflineCopyNotice';
import { pasteShareUrl, pasteViewQuery, rawPasteUrl, unlockPaste } from '../pastes/api';
import { PlainTextView } from '../pastes/PlainTextView';

// Most shared pastes are Markdown: the renderer starts loading with this screen, next to the paste itself,
// instead of after it arrives (one round trip less before the text shows).
void loadMarkdownRuntime().catch(() => undefined);

const InlineEditor = lazy(() => import('./PasteEditor'));
const QrDialog = lazy(() => import('./QrDialog'));
// Only pastes with an `encryption` load the crypto code.
const EncryptedPaste = lazy(() => import('./EncryptedPaste'));

type Failure = 'gone' | 'notFound' | 'error';

function failureOf(error: unknown): Failure {
  if (!isApiError(error)) return 'error';
  if (error.kind === 'expired' || error.kind === 'gone') return 'gone';
  if (error.kind === 'not_found') return 'notFound';
  return 'error';
}

function Meta({ paste }: { paste: PasteView }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="flex flex-wrap gap-1.5" data-testid="paste-meta">
      <Badge tone="primary">{paste.type === 'markdown' ? t('paste.type.markdown') : t('paste.type.text')}</Badge>
      {paste.encryption && (
        <Badge tone="success" data-testid="paste-encrypted">
          {t('paste.view.encrypted')}
        </Badge>
      )}
      {paste.has_password && <Badge tone="warning">{t('paste.view.protected')}</Badge>}
      <Badge title={paste.expires_at ? formatDateTime(paste.expires_at, i18n.language) : undefined}>
        {paste.expires_at
          ? t('paste.view.expires', { when: formatRelative(paste.expires_at, i18n.language) })
          : t('paste.view.neverExpires')}
      </Badge>
      <Badge data-testid="remaining-views">
        {paste.remaining_views === null
          ? t('paste.view.views', { count: paste.views })
          : t('paste.view.remaining', { count: paste.remaining_views })}
      </Badge>
      <Badge>{t('paste.view.created', { when: formatRelative(paste.created_at, i18n.language) })}</Badge>
    </div>
  );
}

function PasteContent({
  paste: initial,
  password,
  linkKey,
}: {
  paste: PasteView;
  password?: string;
  /** An encrypted paste's fragment key: kept in the shared link, never sent. */
  linkKey?: string;
}) {
  const { t } = useTranslation();
  const [paste, setPaste] = useState(initial);
  const [editing, setEditing] = useState(false);
  // undefined until first opened: the dialog chunk loads then.
  const [qrOpen, setQrOpen] = useState<boolean | undefined>(undefined);
  const encrypted = paste.encryption !== null && paste.encryption !== undefined;
  const url = pasteShareUrl(paste.slug) + (linkKey ? `#${linkKey}` : '');
  const raw = rawPasteUrl(paste.slug, password);

  async function copy(text: string, done: string) {
    if (await copyText(text)) toast.success(done);
    else toast.error(t('common.copyFailed'));
  }

  return (
    <article className="mx-auto flex w-full max-w-4xl flex-col gap-4">
      <header className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-5">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="break-words text-xl font-semibold tracking-tight">
              {paste.remark || t('paste.view.untitled', { slug: paste.slug })}
            </h1>
            <p className="mt-0.5 truncate font-mono text-xs text-muted-foreground">/paste/{paste.slug}</p>
          </div>
          <div className="flex shrink-0 flex-wrap items-center gap-1">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void copy(paste.content, t('paste.view.contentCopied'))}
            >
              <Copy className="size-4" aria-hidden="true" />
              {t('paste.view.copyContent')}
            </Button>
            <IconButton label={t('paste.view.copyLink')} onClick={() => void copy(url, t('paste.result.linkCopied'))}>
              <Link2 className="size-4" />
            </IconButton>
            <IconButton label={t('paste.view.showQr')} onClick={() => setQrOpen(true)}>
              <QrIcon className="size-4" />
            </IconButton>
            {/* The raw endpoint counts a view; it is a plain link the reader opens on purpose. */}
            {/* An encrypted paste's raw text would be ciphertext: no raw link. */}
            {!encrypted && (
              <a
                href={raw}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex h-10 items-center gap-1.5 rounded-lg px-3 text-sm font-medium hover:bg-surface-hover focus-visible:outline-2 focus-visible:outline-ring"
              >
                <FileCode2 className="size-4" aria-hidden="true" />
                <span className="max-sm:sr-only">{t('paste.view.raw')}</span>
              </a>
            )}
            {paste.is_owner && paste.id && !editing && !encrypted && (
              <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
                <Pencil className="size-4" aria-hidden="true" />
                <span className="max-sm:sr-only">{t('common.edit')}</span>
              </Button>
            )}
          </div>
        </div>
        <Meta paste={paste} />
        {/* The owner's look is not counted and asks no password: say so, visitors differ. */}
        {paste.is_owner && (paste.max_views > 0 || paste.has_password) && (
          <p className="text-xs text-muted-foreground" data-testid="owner-note">
            {t('paste.view.ownerNote')}
          </p>
        )}
        {encrypted && <p className="text-xs text-muted-foreground">{t('paste.view.noServerFeatures')}</p>}
      </header>

      {paste.remaining_views === 0 && (
        <Alert tone="warning" title={t('paste.view.lastViewTitle')}>
          {t('paste.view.lastViewBody')}
        </Alert>
      )}

      <section className="rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-8">
        {editing ? (
          <Suspense fallback={<PasteSkeleton />}>
            <InlineEditor
              paste={paste}
              onCancel={() => setEditing(false)}
              onSaved={(content, type) => {
                setPaste((p) => ({ ...p, content, type }));
                setEditing(false);
              }}
            />
          </Suspense>
        ) : paste.type === 'markdown' ? (
          <MarkdownView source={paste.content} className="mx-auto" />
        ) : (
          <PlainTextView text={paste.content} label={t('paste.view.contentLabel')} />
        )}
      </section>

      {qrOpen !== undefined && (
        <Suspense fallback={null}>
          <QrDialog url={url} open={qrOpen} onOpenChange={setQrOpen} />
        </Suspense>
      )}
    </article>
  );
}

/** /paste/{slug} (spec §2): the shared paste, its password prompt, or why it is not available. */
export default function PasteViewPage() {
  const { slug = '' } = useParams();
  const query = useQuery(pasteViewQuery(slug));
  const [unlocked, setUnlocked] = useState<{ paste: PasteView; password: string } | null>(null);
  const [unlockFailure, setUnlockFailure] = useState<Failure | null>(null);
  const [unlockError, setUnlockError] = useState<{ message: string; detail?: string } | null>(null);
  const [unlocking, setUnlocking] = useState(false);

  async function unlock(password: string) {
    setUnlocking(true);
    setUnlockError(null);
    try {
      const paste = await unlockPaste(slug, password);
      setUnlocked({ paste, password });
    } catch (error) {
      if (failureOf(error) !== 'error') setUnlockFailure(failureOf(error));
      else setUnlockError({ message: errorMessage(error), detail: serverDetail(error) });
    } finally {
      setUnlocking(false);
    }
  }

  if (unlockFailure) return <PasteFullState kind={unlockFailure} />;
  if (unlocked) return <PasteContent key={slug} paste={unlocked.paste} password={unlocked.password} />;
  if (query.isPending) return <PasteSkeleton />;
  if (query.isError) {
    const kind = failureOf(query.error);
    return (
      <PasteFullState
        kind={kind}
        message={kind === 'error' ? errorMessage(query.error) : undefined}
        detail={serverDetail(query.error)}
        onRetry={kind === 'error' ? () => void query.refetch() : undefined}
      />
    );
  }
  const data = query.data;
  if (data.requires_password) {
    return (
      <PasswordPrompt
        slug={slug}
        busy={unlocking}
        error={unlockError?.message ?? null}
        detail={unlockError?.detail}
        onSubmit={(pw) => void unlock(pw)}
      />
    );
  }
  if (data.encryption) {
    return (
      <Suspense fallback={<PasteSkeleton />}>
        <EncryptedPaste
          paste={data}
          render={(paste, linkKey) => <PasteContent key={slug} paste={paste} linkKey={linkKey} />}
        />
      </Suspense>
    );
  }
  return (
    <>
      <OfflineCopyNotice value={data} />
      <PasteContent key={slug} paste={data} />
    </>
  );
}
