import type { PasteCreated } from '@clipnest/contract';
import { CircleCheck, Copy, ExternalLink, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { LazyQrCode as QrCode } from '../../components/share/LazyQrCode';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { copyText } from '../../lib/clipboard';
import { formatDateTime } from '../../lib/format';
import { pasteShareUrl } from '../pastes/api';

/** Seconds the link stays on screen after creating (spec §2: hidden after a countdown). */
export const SHARE_LINK_VISIBLE_SECONDS = 60;

export function ShareResult({
  created,
  linkKey,
  onHide,
}: {
  created: PasteCreated;
  /** The key of an end-to-end encrypted paste: it goes in the fragment, never to the server. */
  linkKey?: string;
  onHide: () => void;
}) {
  const { t, i18n } = useTranslation();
  const url = pasteShareUrl(created.slug) + (linkKey ? `#${linkKey}` : '');
  const [left, setLeft] = useState(SHARE_LINK_VISIBLE_SECONDS);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [created]);

  useEffect(() => {
    const started = Date.now();
    const timer = window.setInterval(() => {
      const remaining = SHARE_LINK_VISIBLE_SECONDS - Math.floor((Date.now() - started) / 1000);
      setLeft(Math.max(0, remaining));
    }, 250);
    return () => window.clearInterval(timer);
  }, [created]);

  useEffect(() => {
    if (left <= 0) onHide();
  }, [left, onHide]);

  async function copy() {
    if (await copyText(url)) toast.success(t('paste.result.linkCopied'));
    else toast.error(t('common.copyFailed'));
  }

  return (
    <section
      ref={ref}
      aria-labelledby="share-result-title"
      className="relative overflow-hidden rounded-xl border border-primary/40 bg-surface shadow-sm"
      data-testid="share-result"
    >
      <div className="flex flex-col gap-5 p-4 sm:flex-row sm:p-5">
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <div className="flex items-start justify-between gap-2">
            <h2 id="share-result-title" className="flex items-center gap-2 text-base font-semibold">
              <CircleCheck className="size-5 text-success-soft-foreground" aria-hidden="true" />
              {t('paste.result.title')}
            </h2>
            <IconButton label={t('paste.result.hide')} size="icon-sm" className="-me-1.5 -mt-1" onClick={onHide}>
              <X className="size-4" />
            </IconButton>
          </div>
          <div className="flex items-center gap-2 rounded-lg border border-border bg-surface-muted p-1.5 ps-3">
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              className="min-w-0 flex-1 truncate font-mono text-sm text-primary underline-offset-2 hover:underline"
              data-testid="share-link"
            >
              {url}
            </a>
            <Button size="sm" onClick={() => void copy()}>
              <Copy className="size-4" aria-hidden="true" />
              {t('paste.result.copyLink')}
            </Button>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {created.encrypted && <Badge tone="success">{t('paste.result.encrypted')}</Badge>}
            {created.has_password && <Badge tone="warning">{t('paste.result.passwordProtected')}</Badge>}
            <Badge>
              {created.expires_at
                ? t('paste.result.expiresAt', { date: formatDateTime(created.expires_at, i18n.language) })
                : t('paste.result.neverExpires')}
            </Badge>
            <Badge>
              {created.max_views > 0
                ? t('paste.result.maxViews', { count: created.max_views })
                : t('paste.result.unlimitedViews')}
            </Badge>
          </div>
          <div className="mt-auto flex flex-wrap items-center gap-2">
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-primary hover:bg-surface-hover pointer-coarse:h-10"
            >
              <ExternalLink className="size-4" aria-hidden="true" />
              {t('paste.result.open')}
            </a>
          </div>
        </div>
        <div className="flex shrink-0 flex-col items-center gap-1.5 self-center">
          <QrCode value={url} size={148} label={t('paste.result.qrLabel')} />
          <span className="text-xs text-muted-foreground">{t('paste.result.scan')}</span>
        </div>
      </div>
      <div className="border-t border-border bg-surface-muted px-4 py-2 text-xs text-muted-foreground sm:px-5">
        {created.encrypted && <p className="mb-1">{t('paste.result.encryptedNote')}</p>}
        <p aria-live="off" data-testid="share-countdown">
          {t('paste.result.countdown', { count: left })}
        </p>
      </div>
      <div
        className="absolute inset-x-0 bottom-0 h-0.5 bg-primary transition-[width] duration-300 ease-linear"
        style={{ width: `${(left / SHARE_LINK_VISIBLE_SECONDS) * 100}%` }}
        aria-hidden="true"
      />
    </section>
  );
}
