import {
  PASSWORD_MIN,
  changePasswordSchema,
  newPasswordSchema,
  usernameSchema,
  type AdminTokenTestResult,
  type ChangePasswordInput,
} from '@clipnest/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CircleCheck, LogOut, UserRound } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { PasswordInput } from '../../components/ui/password-input';
import { Skeleton } from '../../components/ui/skeleton';
import { api, errorMessage, isApiError } from '../../lib/api';
import { logout } from '../../lib/auth';
import { PasskeysSection } from './PasskeysSection';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';

/** Seconds between a successful change and the automatic logout (spec §4). */
export const LOGOUT_COUNTDOWN_SECONDS = 5;

type FieldName = 'currentPassword' | 'newUsername' | 'newPassword' | 'confirmPassword';
type Errors = Partial<Record<FieldName, string>>;

/** The shared password input, wired to its Field's help and error texts. */
function AccountPasswordInput({
  id,
  value,
  onChange,
  error,
  hasHelp,
  autoComplete,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  hasHelp: boolean;
  autoComplete: string;
}) {
  const aria = fieldAria(id, error, hasHelp);
  return (
    <PasswordInput
      id={id}
      value={value}
      onChange={onChange}
      invalid={aria['aria-invalid']}
      describedBy={aria['aria-describedby']}
      autoComplete={autoComplete}
    />
  );
}

function Countdown({ username, onLogoutNow }: { username: string; onLogoutNow: () => void }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(LOGOUT_COUNTDOWN_SECONDS);
  const done = useRef(false);
  useEffect(() => {
    const timer = window.setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left === 0 && !done.current) {
      done.current = true;
      onLogoutNow();
    }
  }, [left, onLogoutNow]);
  return (
    <div
      role="status"
      data-testid="logout-countdown"
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-6 text-center shadow-sm"
    >
      <div className="mx-auto grid size-12 place-items-center rounded-full bg-success-soft text-success-soft-foreground">
        <CircleCheck className="size-6" aria-hidden="true" />
      </div>
      <div>
        <p className="text-lg font-semibold">{t('adminPanel.account.updatedTitle')}</p>
        <p className="mt-1 text-sm text-muted-foreground">{t('adminPanel.account.updatedBody', { username })}</p>
      </div>
      <p className="text-sm" aria-live="polite">
        {t('adminPanel.account.countdown', { count: left })}
      </p>
      <div className="mx-auto h-1.5 w-full max-w-xs overflow-hidden rounded-full bg-surface-muted">
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-1000 ease-linear"
          style={{ width: `${(left / LOGOUT_COUNTDOWN_SECONDS) * 100}%` }}
        />
      </div>
      <Button className="mx-auto" onClick={onLogoutNow}>
        <LogOut className="size-4" aria-hidden="true" />
        {t('adminPanel.account.logoutNow')}
      </Button>
    </div>
  );
}

/**
 * Account (spec §4, §5): change the admin username and/or password (then log out after a countdown), two-factor
 * sign-in, passkeys and the list of sign-ins.
 */
export default function AccountPage() {
  const { t } = useTranslation();
  const me = useQuery({
    queryKey: ['admin', 'me'],
    queryFn: ({ signal }) => api.get<AdminTokenTestResult>('/test/admin-token', { signal }),
    // Never show the name of a previous session (the account may have just been renamed).
    gcTime: 0,
  });
  const [values, setValues] = useState({ currentPassword: '', newUsername: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<{ username: string }>('/admin/change-password', input),
  });

  function validate(v: typeof values): Errors {
    const out: Errors = {};
    if (!v.currentPassword) out.currentPassword = t('adminPanel.account.errors.currentRequired');
    const username = v.newUsername.trim();
    if (username && !usernameSchema.safeParse(username).success)
      out.newUsername = t('adminPanel.account.errors.username');
    if (v.newPassword && !newPasswordSchema.safeParse(v.newPassword).success) {
      out.newPassword = t('adminPanel.account.errors.passwordLength', { min: PASSWORD_MIN });
    } else if (v.newPassword && v.newPassword === v.currentPassword) {
      out.newPassword = t('adminPanel.account.errors.passwordSame');
    }
    if (v.newPassword && v.confirmPassword !== v.newPassword)
      out.confirmPassword = t('adminPanel.account.errors.confirm');
    if (!username && !v.newPassword) out.newUsername = t('adminPanel.account.errors.nothing');
    if (username && username === me.data?.username && !v.newPassword)
      out.newUsername = t('adminPanel.account.errors.sameUsername');
    return out;
  }

  const [submitted, setSubmitted] = useState(false);
  const set = (name: FieldName, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
    else setErrors((e) => ({ ...e, [name]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    const first = (['currentPassword', 'newUsername', 'newPassword', 'confirmPassword'] as const).find((k) => found[k]);
    if (first) {
      document.getElementById(`account-${first}`)?.focus();
      return;
    }
    const input: ChangePasswordInput = { currentPassword: values.currentPassword };
    if (values.newUsername.trim()) input.newUsername = values.newUsername.trim();
    if (values.newPassword) input.newPassword = values.newPassword;
    const parsed = changePasswordSchema.safeParse(input);
    if (!parsed.success) {
      toast.error(parsed.error.issues[0]?.message ?? t('errors.unknown'));
      return;
    }
    try {
      const result = await change.mutateAsync(input);
      setChangedTo(result.username);
    } catch (error) {
      if (isApiError(error) && error.kind === 'unauthorized') {
        setErrors({ currentPassword: t('adminPanel.account.errors.currentWrong') });
        document.getElementById('account-currentPassword')?.focus();
      } else if (isApiError(error) && error.kind === 'conflict') {
        setErrors({ newUsername: t('adminPanel.account.usernameTaken') });
      } else if (!(isApiError(error) && error.loggedOut)) {
        toast.error(errorMessage(error));
      }
    }
  }

  const logoutNow = () => {
    // The change ended every other sign-in; this one ends here too (best effort: the server may be gone).
    void api.post('/admin/logout', undefined, { handleAuthErrors: false, timeoutMs: 5000 }).catch(() => undefined);
    logout('user', t('adminPanel.account.loggedOut'));
    toast.success(t('adminPanel.account.loggedOut'), { id: 'account-logged-out' });
  };

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t('admin.pages.account')}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{t('admin.pageBody.account')}</p>
      </div>

      {changedTo !== null ? (
        <Countdown username={changedTo} onLogoutNow={logoutNow} />
      ) : (
        <form
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          className="flex flex-col gap-5 rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-6"
        >
          <div className="flex items-center gap-3 rounded-lg bg-surface-muted px-3 py-2.5">
            <UserRound className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
            {me.isPending ? (
              <Skeleton className="h-4 w-40" />
            ) : (
              <p className="min-w-0 truncate text-sm">
                {t('adminPanel.account.signedInAs')}{' '}
                <strong data-testid="current-username">{me.data?.username ?? '—'}</strong>
              </p>
            )}
          </div>
          <Field
            id="account-newUsername"
            label={t('adminPanel.account.newUsername')}
            optional={t('common.optional')}
            help={t('adminPanel.account.newUsernameHelp')}
            error={errors.newUsername}
          >
            <Input
              {...fieldAria('account-newUsername', errors.newUsername, true)}
              autoComplete="username"
              autoCapitalize="off"
              spellCheck={false}
              value={values.newUsername}
              onChange={(event) => set('newUsername', event.target.value)}
            />
          </Field>
          <Field
            id="account-newPassword"
            label={t('adminPanel.account.newPassword')}
            optional={t('common.optional')}
            help={t('adminPanel.account.newPasswordHelp', { min: PASSWORD_MIN })}
            error={errors.newPassword}
          >
            <AccountPasswordInput
              id="account-newPassword"
              value={values.newPassword}
              onChange={(v) => set('newPassword', v)}
              error={errors.newPassword}
              hasHelp
              autoComplete="new-password"
            />
          </Field>
          {values.newPassword !== '' && (
            <Field
              id="account-confirmPassword"
              label={t('adminPanel.account.confirmPassword')}
              error={errors.confirmPassword}
            >
              <AccountPasswordInput
                id="account-confirmPassword"
                value={values.confirmPassword}
                onChange={(v) => set('confirmPassword', v)}
                error={errors.confirmPassword}
                hasHelp={false}
                autoComplete="new-password"
              />
            </Field>
          )}
          <div className="border-t border-border pt-5">
            <Field
              id="account-currentPassword"
              label={t('adminPanel.account.currentPassword')}
              help={t('adminPanel.account.currentPasswordHelp')}
              error={errors.currentPassword}
            >
              <AccountPasswordInput
                id="account-currentPassword"
                value={values.currentPassword}
                onChange={(v) => set('currentPassword', v)}
                error={errors.currentPassword}
                hasHelp
                autoComplete="current-password"
              />
            </Field>
          </div>
          <div className="flex justify-end">
            <Button type="submit" loading={change.isPending}>
              {t('adminPanel.account.submit')}
            </Button>
          </div>
        </form>
      )}
      {changedTo === null && (
        <>
          <TwoFactorSection />
          <PasskeysSection />
          <SessionsSection />
        </>
      )}
    </div>
  );
}
