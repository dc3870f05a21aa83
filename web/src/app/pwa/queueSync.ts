// Replays the offline queue (loaded on demand) and turns its events into the toasts of spec §8.
import { toast } from '../../lib/toast';
import i18n from '../../lib/i18n';

type Navigate = (to: string) => void;

let attached = false;
let navigateTo: Navigate = (to) => window.location.assign(to);

export function setQueueNavigate(navigate: Navigate): void {
  navigateTo = navigate;
}

async function queueModule() {
  const queue = await import('../../lib/offline/queue');
  if (!attached) {
    attached = true;
    queue.onQueueEvent((event) => {
      if (event.type === 'synced' && event.item.type === 'createPaste') {
        const url = (event.data as { url?: string } | undefined)?.url;
        toast.success(i18n.t('pwa.synced'), {
          duration: 8000,
          ...(url ? { action: { label: i18n.t('pwa.openSynced'), onClick: () => navigateTo(url) } } : {}),
        });
      } else if (event.type === 'conflict') {
        toast.error(i18n.t('pwa.conflict', { message: event.item.error ?? '' }), { duration: 8000 });
      } else if (event.type === 'sync-failed') {
        toast.error(i18n.t('pwa.syncFailed'), { duration: 3000 });
      }
    });
  }
  return queue;
}

/** Sends what waits in the offline queue, in order. */
export async function syncQueue(): Promise<void> {
  try {
    await (await queueModule()).replayQueue();
  } catch {
    toast.error(i18n.t('pwa.syncFailed'), { duration: 3000 });
  }
}

/** Loads the queue module with its toasts attached (for pages that queue requests). */
export const loadQueue = queueModule;
