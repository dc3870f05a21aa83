import { Archive, Check, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/useTranslation';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { IconButton } from '../../../components/ui/icon-button';
import { Spinner } from '../../../components/ui/spinner';
import { api, errorMessage, getApiBaseUrl } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../../../lib/format';
import { basket, sizeLevel, totalSize, useBasket } from '../basket';

/** Spec §4 basket packing. The server builds the zip while it sends it, so downloading and generating run together. */
export type PackStage = 'idle' | 'preparing' | 'downloading' | 'completed' | 'failed';
const STEPS = ['preparing', 'downloading', 'completed'] as const;

/** Answer of POST /fs/zip/link. */
interface ZipLink {
  url: string;
  expires_at: string;
}

/** The file basket: its files with size and source folder, remove, and "download as one zip" (a native download). */
export function BasketPanel() {
  const { t, i18n } = useTranslation();
  const items = useBasket();
  const [stage, setStage] = useState<PackStage>('idle');
  const [error, setError] = useState<string | null>(null);
  const [warn, setWarn] = useState(false);
  if (items.length === 0) return null;
  const total = totalSize(items);
  const level = sizeLevel(total);
  const lang = i18n.language;

  async function pack() {
    setWarn(false);
    setError(null);
    setStage('preparing');
    try {
      // Preparing: the server checks every path (permissions, base path, existence) and makes a 5-minute link.
      const link = await api.post<ZipLink>('/fs/zip/link', { paths: items.map((i) => i.path), name: 'basket' });
      setStage('downloading');
      // Downloading + generating: the browser downloads natively while the server streams the archive it builds.
      const a = document.createElement('a');
      a.href = new URL(link.url, getApiBaseUrl() || window.location.origin).href;
      a.download = '';
      a.rel = 'noopener';
      a.click();
      setStage('completed');
    } catch (e) {
      setError(errorMessage(e));
      setStage('failed');
    }
  }

  return (
    <section
      aria-label={t('fs.basket.title')}
      className="rounded-xl border border-border bg-surface p-3 shadow-sm"
      data-testid="fs-basket"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-medium">
          {t('fs.basket.summary', { count: items.length, size: formatBytes(total, lang) })}
        </h2>
        <div className="flex gap-1">
          <Button variant="ghost" size="sm" onClick={() => basket.clear()}>
            {t('fs.basket.clear')}
          </Button>
          <Button
            size="sm"
            loading={stage === 'preparing'}
            onClick={() => (level === 'normal' ? void pack() : setWarn(true))}
          >
            <Archive className="size-4" aria-hidden="true" />
            {t('fs.basket.download')}
          </Button>
        </div>
      </div>
      {stage !== 'idle' && (
        <ol className="mb-2 flex flex-wrap gap-x-3 gap-y-1 text-xs" data-testid="fs-basket-stage" data-stage={stage}>
          {stage === 'failed' ? (
            <li className="text-destructive-soft-foreground">{t('fs.basket.stage.failed', { error })}</li>
          ) : (
            STEPS.map((s, i) => {
              const at = STEPS.indexOf(stage as (typeof STEPS)[number]);
              const done = i < at || stage === 'completed';
              return (
                <li
                  key={s}
                  className={cn('flex items-center gap-1', i > at ? 'text-muted-foreground' : 'text-foreground')}
                >
                  {done ? <Check className="size-3" aria-hidden="true" /> : i === at && <Spinner className="size-3" />}
                  {t(`fs.basket.stage.${s}`)}
                </li>
              );
            })
          )}
        </ol>
      )}
      <ul className="flex max-h-56 flex-col gap-1 overflow-y-auto">
        {items.map((item) => (
          <li
            key={item.path}
            className="flex items-center gap-2 text-sm"
            data-testid="fs-basket-item"
            data-path={item.path}
          >
            <div className="min-w-0 flex-1">
              <p className="truncate" title={item.path}>
                {item.name}
              </p>
              <p className="truncate text-xs text-muted-foreground">
                {formatBytes(item.size, lang)} · <span className="font-mono">{item.folder}</span>
              </p>
            </div>
            <IconButton
              label={t('fs.basket.remove', { name: item.name })}
              size="icon-sm"
              onClick={() => basket.remove(item.path)}
            >
              <X className="size-4" />
            </IconButton>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={warn}
        onOpenChange={setWarn}
        title={t(level === 'veryLarge' ? 'fs.basket.veryLargeTitle' : 'fs.basket.largeTitle', {
          size: formatBytes(total, lang),
        })}
        description={t(level === 'veryLarge' ? 'fs.basket.veryLargeBody' : 'fs.basket.largeBody')}
        confirmLabel={t('fs.basket.downloadAnyway')}
        onConfirm={() => void pack()}
      />
    </section>
  );
}
