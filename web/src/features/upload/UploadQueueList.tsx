import {
  CircleAlert,
  CircleCheck,
  Copy,
  ExternalLink,
  File as FileIcon,
  FileImage,
  FileText,
  FileVideo,
  RotateCcw,
  X,
} from 'lucide-react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { IconButton } from '../../components/ui/icon-button';
import { Progress } from '../../components/ui/progress';
import { copyText } from '../../lib/clipboard';
import { cn } from '../../lib/cn';
import { formatBytes, formatDuration, formatSpeed } from '../../lib/format';
import { shareLink } from './api';
import type { QueueItem } from './useUploadQueue';

function KindIcon({ type }: { type: string }) {
  if (type.startsWith('image/')) return <FileImage className="size-5" aria-hidden="true" />;
  if (type.startsWith('video/')) return <FileVideo className="size-5" aria-hidden="true" />;
  if (type.startsWith('text/')) return <FileText className="size-5" aria-hidden="true" />;
  return <FileIcon className="size-5" aria-hidden="true" />;
}

const ACTIVE = new Set(['starting', 'initializing', 'uploading', 'processing', 'completing']);

export function isActive(item: QueueItem): boolean {
  return ACTIVE.has(item.stage);
}

function QueueRow({
  item,
  onRemove,
  onCancel,
  onRetry,
}: {
  item: QueueItem;
  onRemove: () => void;
  onCancel: () => void;
  onRetry: () => void;
}) {
  const { t, i18n } = useTranslation();
  const active = isActive(item);
  const percent = item.total > 0 ? (item.loaded / item.total) * 100 : item.stage === 'completed' ? 100 : 0;
  const link = item.result ? shareLink(item.result.slug) + (item.linkKey ? `#${item.linkKey}` : '') : null;

  const copy = async () => {
    if (!link) return;
    if (await copyText(link)) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };

  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-border bg-surface p-3"
      data-testid="upload-item"
      data-stage={item.stage}
    >
      <div className="flex items-start gap-3">
        <div
          className={cn(
            'grid size-10 shrink-0 place-items-center rounded-lg',
            item.stage === 'completed'
              ? 'bg-success-soft text-success-soft-foreground'
              : item.stage === 'failed' || item.problem
                ? 'bg-destructive-soft text-destructive-soft-foreground'
                : 'bg-primary-soft text-primary-soft-foreground',
          )}
        >
          {item.stage === 'completed' ? (
            <CircleCheck className="size-5" aria-hidden="true" />
          ) : item.stage === 'failed' || item.problem ? (
            <CircleAlert className="size-5" aria-hidden="true" />
          ) : (
            <KindIcon type={item.file.type} />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={item.name}>
            {item.name}
          </p>
          <p className="text-xs text-muted-foreground">
            {active || item.stage === 'completed'
              ? `${formatBytes(item.loaded, i18n.language)} / ${formatBytes(item.total, i18n.language)}`
              : formatBytes(item.total, i18n.language)}
            {' · '}
            <span data-testid="upload-stage" className={item.problem ? 'text-destructive-soft-foreground' : undefined}>
              {item.problem && item.stage === 'pending'
                ? t('files.upload.stage.refused')
                : t(`files.upload.stage.${item.stage}`)}
            </span>
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-0.5">
          {item.stage === 'completed' && link && (
            <>
              <IconButton
                label={t('files.upload.copyLink', { name: item.name })}
                size="icon-sm"
                onClick={() => void copy()}
              >
                <Copy className="size-4" />
              </IconButton>
              <IconButton label={t('files.upload.openShare', { name: item.name })} size="icon-sm" asChild>
                <Link to={`/file/${encodeURIComponent(item.result!.slug)}`}>
                  <ExternalLink className="size-4" />
                </Link>
              </IconButton>
            </>
          )}
          {(item.stage === 'failed' || item.stage === 'cancelled') && !item.problem && (
            <IconButton label={t('files.upload.retry', { name: item.name })} size="icon-sm" onClick={onRetry}>
              <RotateCcw className="size-4" />
            </IconButton>
          )}
          {active ? (
            <IconButton label={t('files.upload.cancel', { name: item.name })} size="icon-sm" onClick={onCancel}>
              <X className="size-4" />
            </IconButton>
          ) : (
            <IconButton label={t('files.upload.remove', { name: item.name })} size="icon-sm" onClick={onRemove}>
              <X className="size-4" />
            </IconButton>
          )}
        </div>
      </div>
      {active && (
        <div className="flex flex-col gap-1.5">
          <Progress
            value={
              item.stage === 'starting' || item.stage === 'processing'
                ? item.stage === 'processing'
                  ? 100
                  : 0
                : percent
            }
            label={t('files.upload.progressLabel', { name: item.name })}
            valueText={`${Math.round(percent)}%`}
          />
          <div className="flex flex-wrap justify-between gap-x-3 text-xs tabular-nums text-muted-foreground">
            <span>{Math.round(percent)}%</span>
            <span>
              {item.speed !== null && t('files.upload.speed', { speed: formatSpeed(item.speed, i18n.language) })}
              {item.speed !== null && item.etaSeconds !== null && ' · '}
              {item.etaSeconds !== null &&
                item.stage === 'uploading' &&
                t('files.upload.timeLeft', { time: formatDuration(item.etaSeconds) })}
            </span>
          </div>
        </div>
      )}
      {item.stage === 'completed' && link && (
        <a
          href={link}
          className="truncate rounded-sm font-mono text-xs text-primary-soft-foreground underline-offset-2 hover:underline"
          data-testid="upload-link"
        >
          {link}
        </a>
      )}
      {(item.problem || (item.stage === 'failed' && item.error)) && (
        <p role="alert" className="text-xs font-medium text-destructive-soft-foreground">
          {item.problem ?? item.error}
        </p>
      )}
    </li>
  );
}

export function UploadQueueList({
  items,
  onRemove,
  onCancel,
  onRetry,
}: {
  items: QueueItem[];
  onRemove: (id: string) => void;
  onCancel: (id: string) => void;
  onRetry: (item: QueueItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-col gap-2" aria-label={t('files.upload.queueLabel')}>
      {items.map((item) => (
        <QueueRow
          key={item.id}
          item={item}
          onRemove={() => onRemove(item.id)}
          onCancel={() => onCancel(item.id)}
          onRetry={() => onRetry(item)}
        />
      ))}
    </ul>
  );
}
