import { ArrowLeft, Ban, CloudOff, FileQuestion, Lock, RotateCcw, ServerCrash, TimerOff } from 'lucide-react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { Button, buttonClasses } from '../../components/ui/button';
import { ErrorDetails } from '../../components/ui/error-details';
import type { FileErrorKind } from './api';

const ICONS = {
  unauthorized: Lock,
  forbidden: Ban,
  gone: TimerOff,
  notFound: FileQuestion,
  network: CloudOff,
  server: ServerCrash,
  missingId: FileQuestion,
} as const;

/** A full-page state for a share that cannot be shown (spec §8 file view), with a way home. */
export function FileErrorState({
  kind,
  detail,
  onRetry,
}: {
  kind: FileErrorKind;
  /** The server's sentence (English), shown only behind a "Details" expander. */
  detail?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const Icon = ICONS[kind];
  const title = {
    unauthorized: t('errors.fileView.unauthorized'),
    forbidden: t('errors.fileView.forbidden'),
    gone: t('errors.fileView.forbidden'),
    notFound: t('errors.fileView.notFound'),
    network: t('errors.fileView.network'),
    server: t('errors.fileView.server'),
    missingId: t('errors.fileView.missingId'),
  }[kind];
  const body = t(`files.view.errorBody.${kind}`);
  const retryable = kind === 'network' || kind === 'server';
  return (
    <section
      className="mx-auto flex w-full max-w-lg flex-col items-center gap-4 py-10 text-center"
      data-testid="file-error"
      data-kind={kind}
    >
      <div className="grid size-16 place-items-center rounded-full bg-surface-muted text-muted-foreground">
        <Icon className="size-8" aria-hidden="true" />
      </div>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-2 text-muted-foreground">{body}</p>
        {kind !== 'notFound' && <ErrorDetails detail={detail} className="mx-auto mt-3 w-fit max-w-full" />}
      </div>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        {retryable && onRetry && (
          <Button variant="secondary" onClick={onRetry}>
            <RotateCcw className="size-4" aria-hidden="true" />
            {t('common.retry')}
          </Button>
        )}
        <Link to="/" className={buttonClasses('primary')}>
          <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden="true" />
          {t('common.backHome')}
        </Link>
      </div>
    </section>
  );
}
