import { useEffect } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { useNavigate } from '../../lib/navigation';
import { toast } from '../../lib/toast';
import { pendingCount } from '../../lib/offline/status';
import { InstallPrompt } from './InstallPrompt';
import { setQueueNavigate, syncQueue } from './queueSync';

/** Offline toasts (3 s, spec §8), queue replay when the network or the service worker says so, install prompt. */
export function PwaLayer() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    setQueueNavigate((to) => void navigate(to));
  }, [navigate]);
  useEffect(() => {
    const offline = () => toast(t('pwa.offline'), { id: 'network', duration: 3000 });
    const online = () => {
      toast(t('pwa.online'), { id: 'network', duration: 3000 });
      if (pendingCount() > 0) void syncQueue();
    };
    // Background sync fired in the service worker (public/sw-sync.js): this page does the replay.
    const fromWorker = (event: MessageEvent<{ type?: string }>) => {
      if (event.data?.type === 'sync-offline-queue') void syncQueue();
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    navigator.serviceWorker?.addEventListener('message', fromWorker);
    if (navigator.onLine && pendingCount() > 0) void syncQueue();
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      navigator.serviceWorker?.removeEventListener('message', fromWorker);
    };
  }, [t]);
  return <InstallPrompt />;
}
