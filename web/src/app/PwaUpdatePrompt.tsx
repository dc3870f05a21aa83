import { useEffect } from 'react';
import { useTranslation } from '../lib/useTranslation';
import { toast } from '../lib/toast';
import { useRegisterSW } from 'virtual:pwa-register/react';

/** Registers the service worker and asks before switching to a new version (prompt mode). */
export function PwaUpdatePrompt() {
  const { t } = useTranslation();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();

  useEffect(() => {
    if (!needRefresh) return;
    toast(t('pwa.updateAvailable'), {
      id: 'pwa-update',
      duration: Infinity,
      action: {
        label: t('pwa.reload'),
        onClick: () => {
          // The waiting worker skips waiting; reload after 1 s (spec §4, §9).
          void updateServiceWorker(false);
          window.setTimeout(() => window.location.reload(), 1000);
        },
      },
      onDismiss: () => setNeedRefresh(false),
    });
  }, [needRefresh, setNeedRefresh, t, updateServiceWorker]);
  return null;
}
