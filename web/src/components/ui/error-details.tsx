import { useTranslation } from '../../lib/useTranslation';
import { isApiError } from '../../lib/api';
import { cn } from '../../lib/cn';

/** The server's own sentence of a failure (English, for logs and scripts), when there is one to show. */
export function serverDetail(error: unknown): string | undefined {
  return isApiError(error) ? error.serverMessage?.trim() || undefined : undefined;
}

/**
 * The server's sentence behind a "Details" expander, under a localised message: the
 * message the user reads is chosen by the error's kind; the server's words are only for who wants them.
 */
export function ErrorDetails({ detail, className }: { detail: string | undefined; className?: string }) {
  const { t } = useTranslation();
  if (!detail) return null;
  return (
    <details className={cn('text-xs text-muted-foreground', className)} data-testid="error-details">
      <summary className="w-fit cursor-pointer select-none rounded-sm hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
        {t('errors.details')}
      </summary>
      <p className="mt-1 break-words font-mono" lang="en" dir="ltr">
        {detail}
      </p>
    </details>
  );
}
