import { Maximize2, Minus, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { IconButton } from '../ui/icon-button';
import { cn } from '../../lib/cn';

const STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];

/**
 * An image that fits its frame; zoom with the buttons or by clicking (fit ↔ 100 %). `maxHeight` bounds the
 * frame (default 75dvh, the file page); a dialog passes what is left of its own height after its header,
 * footer and the zoom bar, so the whole picture shows without scrolling.
 */
export function ImagePreview({
  src,
  alt,
  onError,
  maxHeight = '75dvh',
}: {
  src: string;
  alt: string;
  onError: () => void;
  maxHeight?: string;
}) {
  const { t } = useTranslation();
  // null = fit to the frame.
  const [zoom, setZoom] = useState<number | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const step = (dir: 1 | -1) => {
    const current = zoom ?? 1;
    const next = dir === 1 ? STEPS.find((s) => s > current) : [...STEPS].reverse().find((s) => s < current);
    setZoom(next ?? current);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-end gap-1">
        <span className="me-auto text-xs tabular-nums text-muted-foreground" aria-live="polite">
          {natural && `${natural.w} × ${natural.h}`}
          {zoom !== null && ` · ${Math.round(zoom * 100)}%`}
        </span>
        <IconButton
          label={t('files.view.zoomOut')}
          size="icon-sm"
          onClick={() => step(-1)}
          disabled={zoom === STEPS[0]}
        >
          <Minus className="size-4" />
        </IconButton>
        <IconButton
          label={t('files.view.zoomIn')}
          size="icon-sm"
          onClick={() => step(1)}
          disabled={zoom === STEPS.at(-1)}
        >
          <Plus className="size-4" />
        </IconButton>
        <IconButton
          label={t('files.view.zoomFit')}
          size="icon-sm"
          onClick={() => setZoom(null)}
          disabled={zoom === null}
        >
          <Maximize2 className="size-4" />
        </IconButton>
      </div>
      <div
        className={cn(
          'grid min-h-48 overflow-auto rounded-lg border border-border bg-surface-muted',
          'bg-[conic-gradient(var(--surface-hover)_25%,transparent_0_50%,var(--surface-hover)_0_75%,transparent_0)] bg-[length:20px_20px]',
          zoom === null && 'place-items-center',
        )}
        style={{ maxHeight }}
      >
        <img
          src={src}
          alt={alt}
          data-testid="image-preview"
          onLoad={(event) => setNatural({ w: event.currentTarget.naturalWidth, h: event.currentTarget.naturalHeight })}
          onError={onError}
          onClick={() => setZoom((z) => (z === null ? 1 : null))}
          style={
            zoom !== null && natural
              ? { width: natural.w * zoom, maxWidth: 'none' }
              : { maxHeight: `calc(${maxHeight} - 2px)` }
          }
          className={cn('block', zoom === null ? 'max-w-full cursor-zoom-in object-contain' : 'cursor-zoom-out')}
        />
      </div>
    </div>
  );
}
