import { useTranslation } from '../lib/useTranslation';
import { Skeleton } from './ui/skeleton';

/** Shown while a screen's code loads: the shape of a page, never a blank area. */
export function PageFallback({ variant = 'public' }: { variant?: 'public' | 'admin' }) {
  const { t } = useTranslation();
  return (
    <div className={variant === 'public' ? 'mx-auto w-full max-w-4xl' : 'mx-auto w-full max-w-6xl'} aria-busy="true">
      <span className="sr-only" role="status">
        {t('common.loading')}
      </span>
      {variant === 'admin' ? (
        <>
          <Skeleton className="h-8 w-56" />
          <Skeleton className="mt-3 h-4 w-96 max-w-full" />
          <Skeleton className="mt-8 h-64 w-full rounded-xl" />
        </>
      ) : (
        <Skeleton className="h-80 w-full rounded-2xl" />
      )}
    </div>
  );
}
