import { KeyRound, LockKeyhole } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Button } from '../../components/ui/button';
import { ErrorDetails } from '../../components/ui/error-details';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';

/** Asks for a share's password; a wrong one says so inline, the server's words behind Details. */
export function PasswordPrompt({
  onSubmit,
  busy,
  error,
  detail,
  texts,
}: {
  onSubmit: (password: string) => void;
  busy: boolean;
  error: string | undefined;
  /** The server's sentence for `error`, behind a "Details" expander. */
  detail?: string;
  /** The heading, sentence and button of another kind of share (a folder); default: a file's. */
  texts?: { title: string; body: string; submit: string };
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onSubmit(password);
  };
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col items-center gap-5 py-8" data-testid="password-prompt">
      <div className="grid size-14 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
        <LockKeyhole className="size-7" aria-hidden="true" />
      </div>
      <div className="text-center">
        <h1 className="text-2xl font-semibold tracking-tight">{texts?.title ?? t('files.view.passwordTitle')}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{texts?.body ?? t('files.view.passwordBody')}</p>
      </div>
      <form
        onSubmit={submit}
        className="flex w-full flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-sm"
      >
        <Field id="file-password" label={t('files.view.passwordLabel')} error={error}>
          <Input
            {...fieldAria('file-password', error, false)}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        {error && <ErrorDetails detail={detail} className="-mt-2" />}
        <Button type="submit" loading={busy} disabled={!password}>
          <KeyRound className="size-4" aria-hidden="true" />
          {texts?.submit ?? t('files.view.unlock')}
        </Button>
      </form>
    </section>
  );
}
