import { FileQuestion, Home, LockKeyhole, TimerOff } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { Button, buttonClasses } from '../../components/ui/button';
import { ErrorDetails } from '../../components/ui/error-details';
import { Field } from '../../components/ui/field';
import { Skeleton } from '../../components/ui/skeleton';
import { PasswordInput } from '../../components/ui/password-input';

/** Full-page state for a paste that is gone, missing or failed to load, with a way home. */
export function PasteFullState({
  kind,
  message,
  detail,
  onRetry,
}: {
  kind: 'gone' | 'notFound' | 'error';
  message?: string;
  /** The server's sentence, behind a "Details" expander. */
  detail?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const Icon = kind === 'gone' ? TimerOff : FileQuestion;
  return (
    <section
      className="mx-auto flex w-full max-w-lg flex-col items-center gap-4 rounded-2xl border border-border bg-surface px-6 py-12 text-center shadow-sm"
      data-testid={`paste-${kind}`}
    >
      <div className="grid size-14 place-items-center rounded-full bg-surface-muted text-muted-foreground">
        <Icon className="size-7" aria-hidden="true" />
      </div>
      <div>
        <h1 className="text-xl font-semibold tracking-tight">{t(`paste.view.${kind}Title`)}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{message ?? t(`paste.view.${kind}Body`)}</p>
        <ErrorDetails detail={detail} className="mx-auto mt-3 w-fit max-w-full" />
      </div>
      <div className="mt-1 flex flex-wrap justify-center gap-2">
        {onRetry && (
          <Button variant="secondary" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
        <Link to="/" className={buttonClasses('primary')}>
          <Home className="size-4" aria-hidden="true" />
          {t('common.backHome')}
        </Link>
      </div>
    </section>
  );
}

export function PasteSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-4xl" aria-busy="true">
      <span className="sr-only" role="status">
        {t('common.loading')}
      </span>
      <div className="rounded-xl border border-border bg-surface p-5 shadow-sm">
        <Skeleton className="h-6 w-64 max-w-full" />
        <div className="mt-3 flex gap-2">
          <Skeleton className="h-6 w-20" />
          <Skeleton className="h-6 w-28" />
          <Skeleton className="h-6 w-24" />
        </div>
      </div>
      <div className="mt-4 space-y-3 rounded-xl border border-border bg-surface p-6 shadow-sm">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-11/12" />
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-32 w-full" />
      </div>
    </div>
  );
}

/** The password prompt: a failed check says "wrong password" in the UI's language, the server's words behind Details. */
export function PasswordPrompt({
  slug,
  busy,
  error,
  detail,
  onSubmit,
  title,
  body,
}: {
  slug: string;
  busy: boolean;
  error: string | null;
  /** The server's sentence for `error`, behind a "Details" expander. */
  detail?: string;
  onSubmit: (password: string) => void;
  /** Texts of the encrypted variant (the password is checked by decryption, not by the server). */
  title?: string;
  body?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [password, setPassword] = useState('');
  const [empty, setEmpty] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    onSubmit(password);
  }

  const shown = empty ? t('paste.view.passwordRequired') : error;
  return (
    <section className="mx-auto w-full max-w-md rounded-2xl border border-border bg-surface p-6 shadow-sm sm:p-8">
      <div className="flex flex-col items-center text-center">
        <div className="grid size-12 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <LockKeyhole className="size-6" aria-hidden="true" />
        </div>
        <h1 className="mt-4 text-xl font-semibold tracking-tight">{title ?? t('paste.view.lockedTitle')}</h1>
        <p className="mt-1.5 text-sm text-muted-foreground">{body ?? t('paste.view.lockedBody', { slug })}</p>
      </div>
      <form className="mt-6 flex flex-col gap-4" onSubmit={submit} noValidate>
        <Field id={id} label={t('paste.view.password')} error={shown ?? undefined}>
          <PasswordInput
            id={id}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            invalid={!!shown}
            describedBy={shown ? `${id}-error` : undefined}
          />
        </Field>
        {shown && !empty && <ErrorDetails detail={detail} className="-mt-2" />}
        <Button type="submit" loading={busy} className="w-full">
          {t('paste.view.unlock')}
        </Button>
      </form>
    </section>
  );
}
