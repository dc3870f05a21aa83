import { CloudOff, RefreshCw } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { useOnline, usePendingCount } from '../../lib/offline/status';

const QueueDialog = lazy(() => import('./QueueDialog'));

/** Header chip: "offline" without a network, and how many offline changes wait (opens the queue). */
export function OfflineIndicator() {
  const { t } = useTranslation();
  const online = useOnline();
  const pending = usePendingCount();
  const [open, setOpen] = useState(false);
  if (online && pending === 0) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid="offline-indicator"
        className="inline-flex h-8 items-center gap-1.5 rounded-full border border-border bg-warning-soft px-2.5 text-xs font-medium text-warning-soft-foreground"
        aria-label={pending > 0 ? t('pwa.pending', { count: pending }) : t('pwa.badge')}
      >
        {online ? (
          <RefreshCw className="size-3.5" aria-hidden="true" />
        ) : (
          <CloudOff className="size-3.5" aria-hidden="true" />
        )}
        <span className="hidden sm:inline">{online ? t('pwa.queueTitle') : t('pwa.badge')}</span>
        {pending > 0 && (
          <span className="rounded-full bg-background/70 px-1.5 tabular-nums" data-testid="offline-pending">
            {pending}
          </span>
        )}
      </button>
      {open && (
        // The dialog (and Radix's) loads on first open: the shell stays light.
        <Suspense fallback={null}>
          <QueueDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
