import { ArrowLeft, CloudOff, Home, RotateCw } from 'lucide-react';
import { useTranslation } from '../../lib/useTranslation';
import { Button } from '../../components/ui/button';

/** Spec §2 offline fallback page: this screen's code was never cached and there is no network. */
export function OfflineFallback({ online = false, onRetry }: { online?: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      className="mx-auto flex w-full max-w-md flex-col items-center py-12 text-center"
      data-testid="offline-fallback"
    >
      <span className="flex size-14 items-center justify-center rounded-2xl bg-surface-muted">
        <CloudOff className="size-7 text-muted-foreground" aria-hidden="true" />
      </span>
      <h1 className="mt-5 text-xl font-semibold tracking-tight">
        {online ? t('pwa.pageUnreachable') : t('pwa.fallback.title')}
      </h1>
      {!online && <p className="mt-2 text-sm text-muted-foreground">{t('pwa.fallback.body')}</p>}
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Button variant="secondary" onClick={() => window.location.assign('/')}>
          <Home className="size-4" aria-hidden="true" />
          {t('pwa.fallback.home')}
        </Button>
        <Button variant="secondary" onClick={() => window.history.back()}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('pwa.fallback.back')}
        </Button>
        <Button onClick={onRetry}>
          <RotateCw className="size-4" aria-hidden="true" />
          {t('pwa.fallback.retry')}
        </Button>
      </div>
    </div>
  );
}
