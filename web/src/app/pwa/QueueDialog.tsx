import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import type { QueuedRequest } from '../../lib/offline/db';
import { formatDateTime } from '../../lib/format';
import { useOnline } from '../../lib/offline/status';
import { loadQueue, syncQueue } from './queueSync';
import { messageServiceWorker, serviceWorkerState, type SwState } from './swMessages';

const TONE = { pending: 'neutral', failed: 'danger', conflict: 'warning' } as const;

/** The offline queue: what waits, in order, with its state; refused and conflicting items stay until handled. */
export default function QueueDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const online = useOnline();
  const [items, setItems] = useState<QueuedRequest[] | null>(null);
  const [worker, setWorker] = useState<SwState>('unknown');
  const [syncing, setSyncing] = useState(false);
  const [syncNote, setSyncNote] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    let stop = () => {};
    const load = async () => {
      const queue = await loadQueue();
      const list = await queue.listQueue();
      if (live) setItems(list.sort((a, b) => a.id! - b.id!));
    };
    void loadQueue().then((queue) => {
      stop = queue.onQueueEvent(() => void load());
    });
    void load();
    void serviceWorkerState().then((s) => live && setWorker(s));
    messageServiceWorker<{ syncSupported?: boolean }>({ type: 'GET_SYNC_STATUS' }).then(
      (status) => live && setSyncNote(status.syncSupported ? null : t('pwa.syncFallback')),
      (error: unknown) => live && setSyncNote(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
      stop();
    };
  }, [t]);

  const act = async (fn: (queue: Awaited<ReturnType<typeof loadQueue>>) => Promise<void>) => {
    await fn(await loadQueue());
  };
  const syncNow = async () => {
    setSyncing(true);
    await syncQueue();
    setSyncing(false);
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('pwa.queueTitle')}
        description={t('pwa.queueHint')}
        footer={
          <div className="flex w-full items-center justify-between gap-3">
            <span className="text-xs text-muted-foreground" data-testid="sw-state">
              {t('pwa.swState', { state: t(`pwa.swStates.${worker}`) })}
              {syncNote && <span className="block">{syncNote}</span>}
            </span>
            <Button size="sm" onClick={() => void syncNow()} disabled={!online || syncing} loading={syncing}>
              {t('pwa.retryNow')}
            </Button>
          </div>
        }
      >
        {items === null ? null : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('pwa.queueEmpty')}</p>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="offline-queue">
            {items.map((item) => (
              <li key={item.id} className="rounded-lg border border-border p-3">
                <div className="flex items-center justify-between gap-2">
                  <span className="text-sm font-medium">{t(`pwa.types.${item.type}`)}</span>
                  <Badge tone={TONE[item.status]}>{t(`pwa.status.${item.status}`)}</Badge>
                </div>
                <p className="mt-1 text-xs text-muted-foreground">
                  {formatDateTime(new Date(item.timestamp).toISOString(), i18n.language)}
                </p>
                {item.error && <p className="mt-1 text-sm text-destructive-soft-foreground">{item.error}</p>}
                {item.status !== 'pending' && (
                  <div className="mt-2 flex flex-wrap gap-2">
                    {item.status === 'conflict' && item.type === 'createPaste' && (
                      <Button size="sm" variant="secondary" onClick={() => void act((q) => q.retryWithoutSlug(item))}>
                        {t('pwa.retryWithoutSlug')}
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="destructive-ghost"
                      onClick={() => void act((q) => q.removeQueued(item.id!))}
                    >
                      {t('pwa.discard')}
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
