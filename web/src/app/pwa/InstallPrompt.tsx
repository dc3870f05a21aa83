import { Download, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { safeStorage, StorageKeys } from '../../lib/storageKeys';

/** Hidden for 7 days after "not now" (spec §9); the state is polled every 5 s. */
export const INSTALL_DISMISS_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_POLL_MS = 5000;

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
if (typeof window !== 'undefined') {
  // Captured as early as possible: Chromium fires it once, soon after load.
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
  });
}

function installed(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

export function dismissedRecently(now = Date.now()): boolean {
  const at = Number(safeStorage.get(StorageKeys.pwaInstallDismissed) ?? 0);
  return Number.isFinite(at) && at > 0 && now - at < INSTALL_DISMISS_MS;
}

function shouldShow(): boolean {
  return deferred !== null && !installed() && !dismissedRecently();
}

/** The install card: shown when the browser says the app is installable and it is not installed yet. */
export function InstallPrompt() {
  const { t } = useTranslation();
  const [show, setShow] = useState(shouldShow);
  useEffect(() => {
    const timer = window.setInterval(() => setShow(shouldShow()), INSTALL_POLL_MS);
    return () => window.clearInterval(timer);
  }, []);
  if (!show) return null;

  const dismiss = () => {
    safeStorage.set(StorageKeys.pwaInstallDismissed, String(Date.now()));
    setShow(false);
  };
  const install = async () => {
    const event = deferred;
    if (!event) return;
    deferred = null;
    setShow(false);
    await event.prompt();
    await event.userChoice.catch(() => undefined);
  };
  return (
    <div
      role="dialog"
      aria-labelledby="pwa-install-title"
      data-testid="install-prompt"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-md items-start gap-3 rounded-2xl border border-border bg-surface p-4 shadow-lg sm:inset-x-auto sm:end-5 sm:bottom-5"
    >
      <Download className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p id="pwa-install-title" className="text-sm font-semibold">
          {t('pwa.install.title')}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">{t('pwa.install.body')}</p>
        <div className="mt-3 flex gap-2">
          <Button size="sm" onClick={() => void install()}>
            {t('pwa.install.action')}
          </Button>
          <Button size="sm" variant="ghost" onClick={dismiss}>
            {t('pwa.install.later')}
          </Button>
        </div>
      </div>
      <IconButton label={t('pwa.install.later')} onClick={dismiss} className="-me-2 -mt-2">
        <X className="size-4" />
      </IconButton>
    </div>
  );
}
