import { useEffect } from 'react';
import i18n from '../lib/i18n';
import { toast } from '../lib/toast';
import { watchServiceWorkerUpdates } from './pwa/serviceWorkerUpdates';

/** Registers the service worker once and asks before switching to a new version (prompt mode). */
export function PwaUpdatePrompt() {
  useEffect(() => {
    // i18n.t: the texts of the language in use when the new version arrives, not of the one at registration.
    watchServiceWorkerUpdates((activate) => {
      toast(i18n.t('pwa.updateAvailable'), {
        id: 'pwa-update',
        duration: Infinity,
        action: {
          label: i18n.t('pwa.reload'),
          onClick: () => {
            // The waiting worker skips waiting; reload after 1 s (spec §4, §9).
            activate();
            window.setTimeout(() => window.location.reload(), 1000);
          },
        },
      });
    });
  }, []);
  return null;
}
