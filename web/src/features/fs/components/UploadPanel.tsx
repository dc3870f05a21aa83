import { X } from 'lucide-react';
import { useTranslation } from '../../../lib/useTranslation';
import { Button } from '../../../components/ui/button';
import { IconButton } from '../../../components/ui/icon-button';
import { Progress } from '../../../components/ui/progress';
import { formatBytes, formatSpeed } from '../../../lib/format';
import type { FsUploadItem } from '../useFsUploads';

/** Per-file upload progress, speed and cancel. */
export function UploadPanel({
  items,
  onCancel,
  onClear,
}: {
  items: FsUploadItem[];
  onCancel: (id: number) => void;
  onClear: () => void;
}) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return null;
  const active = items.filter((i) => i.status === 'queued' || i.status === 'uploading').length;
  return (
    <section
      aria-label={t('fs.upload.title')}
      className="rounded-xl border border-border bg-surface p-3 shadow-sm"
      data-testid="fs-uploads"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-sm font-medium">
          {active > 0 ? t('fs.upload.active', { count: active }) : t('fs.upload.finished')}
        </h2>
        {active < items.length && (
          <Button variant="ghost" size="sm" onClick={onClear}>
            {t('fs.upload.clear')}
          </Button>
        )}
      </div>
      <ul className="flex max-h-56 flex-col gap-2 overflow-y-auto">
        {items.map((item) => {
          const pct = item.total > 0 ? (item.loaded / item.total) * 100 : item.status === 'done' ? 100 : 0;
          return (
            <li
              key={item.id}
              className="flex items-center gap-2 text-sm"
              data-testid="fs-upload"
              data-status={item.status}
            >
              <div className="min-w-0 flex-1">
                <div className="flex items-center justify-between gap-2">
                  <span className="truncate" title={item.target}>
                    {item.name}
                  </span>
                  <span className="shrink-0 text-xs tabular-nums text-muted-foreground">
                    {item.status === 'uploading' && item.speed !== null
                      ? formatSpeed(item.speed, i18n.language)
                      : t(`fs.upload.status.${item.status}`)}
                  </span>
                </div>
                <Progress
                  value={pct}
                  tone={item.status === 'error' ? 'danger' : 'primary'}
                  label={t('fs.upload.progressLabel', { name: item.name })}
                />
                <p className="mt-0.5 truncate text-xs text-muted-foreground">
                  {item.status === 'error'
                    ? item.error
                    : `${formatBytes(item.loaded, i18n.language)} / ${formatBytes(item.total, i18n.language)}`}
                </p>
              </div>
              {(item.status === 'queued' || item.status === 'uploading') && (
                <IconButton
                  label={t('fs.upload.cancelNamed', { name: item.name })}
                  size="icon-sm"
                  onClick={() => onCancel(item.id)}
                >
                  <X className="size-4" />
                </IconButton>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
