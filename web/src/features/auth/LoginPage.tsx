import type { SecondFactorRequired } from '@clipnest/contract';
import { Eye, EyeOff, Fingerprint, KeyRound, UserRound } from 'lucide-react';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Logo } from '../../components/Logo';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field, fieldAria } from '../../components/ui/field';
import { IconButton } from '../../components/ui/icon-button';
import { Input } from '../../components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { takeLogoutNotice } from '../../lib/auth';
import { useSiteConfig } from '../../lib/siteConfig';
import { passkeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { LoginError, SecondFactorNeeded, loginWithApiKey, loginWithPasskey, loginWithPassword } from './authApi';
import type { LoginFailure } from './loginErrors';

// Only a sign-in with two-factor on gets this far: it loads then, not with the login page.
const SecondFactorStep = lazy(() => import('./SecondFactorStep').then((m) => ({ default: m.SecondFactorStep })));

type Mode = 'password' | 'apikey';

function useFailureText() {
  const { t } = useTranslation();
  return (failure: LoginFailure | null) => (failure ? ('key' in failure ? t(failure.key) : failure.text) : null);
}

function toFailure(error: unknown): LoginFailure {
  if (error instanceof LoginError) return error.failure;
  return { key: 'login.errors.loginFailed' };
}

function SecretInput({
  value,
  onChange,
  id,
  error,
  hasHelp,
  autoComplete,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  id: string;
  error: string | undefined;
  hasHelp: boolean;
  autoComplete: string;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input
        {...fieldAria(id, error, hasHelp)}
        type={visible ? 'text' : 'password'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        placeholder={placeholder}
        spellCheck={false}
        className="pe-11"
      />
      <IconButton
        label={visible ? t('login.hidePassword') : t('login.showPassword')}
        size="icon"
        className="absolute end-0 top-0 text-muted-foreground hover:bg-transparent"
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
      </IconButton>
    </div>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const id = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondFactor, setSecondFactor] = useState<SecondFactorRequired['methods'] | null>(null);

  async function withPasskey() {
    setFailure(null);
    setBusy(true);
    try {
      await loginWithPasskey();
      toast.success(t('login.success'));
    } catch (error) {
      setBusy(false);
      if (!passkeyCancelled(error)) setFailure(toFailure(error));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors: typeof fieldErrors = {};
    if (!username.trim()) errors.username = t('login.errors.usernameRequired');
    if (!password) errors.password = t('login.errors.passwordRequired');
    setFieldErrors(errors);
    setFailure(null);
    if (errors.username || errors.password) return;
    setBusy(true);
    try {
      await loginWithPassword(username.trim(), password);
      toast.success(t('login.success'));
    } catch (error) {
      setBusy(false);
      if (error instanceof SecondFactorNeeded) setSecondFactor(error.methods);
      else setFailure(toFailure(error));
    }
  }

  const message = failureText(failure);
  if (secondFactor) {
    return (
      <Suspense fallback={<div className="h-72" aria-busy="true" />}>
        <SecondFactorStep
          username={username.trim()}
          password={password}
          methods={secondFactor}
          onBack={() => {
            setSecondFactor(null);
            setPassword('');
          }}
        />
      </Suspense>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field id={`${id}-username`} label={t('login.username')} error={fieldErrors.username}>
        <Input
          {...fieldAria(`${id}-username`, fieldErrors.username, false)}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          name="username"
        />
      </Field>
      <Field id={`${id}-password`} label={t('login.password')} error={fieldErrors.password}>
        <SecretInput
          id={`${id}-password`}
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
          hasHelp={false}
          autoComplete="current-password"
        />
      </Field>
      {message && <Alert tone="danger">{message}</Alert>}
      <Button type="submit" size="lg" loading={busy} className="mt-1 w-full">
        {busy ? t('login.submitting') : t('login.submit')}
      </Button>
      {passkeysSupported() && (
        <Button type="button" variant="secondary" className="w-full" disabled={busy} onClick={() => void withPasskey()}>
          <Fingerprint className="size-4" aria-hidden="true" />
          {t('login.withPasskey')}
        </Button>
      )}
    </form>
  );
}

function ApiKeyForm() {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const id = useId();
  const [apiKey, setApiKey] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!apiKey.trim()) {
      setFieldError(t('login.errors.apiKeyRequired'));
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      await loginWithApiKey(apiKey.trim());
      toast.success(t('login.success'));
    } catch (error) {
      setFailure(toFailure(error));
      setBusy(false);
    }
  }

  const message = failureText(failure);
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Field id={`${id}-key`} label={t('login.apiKey')} help={t('login.apiKeyHelp')} error={fieldError}>
        <SecretInput
          id={`${id}-key`}
          value={apiKey}
          onChange={setApiKey}
          error={fieldError}
          hasHelp
          autoComplete="off"
          placeholder={t('login.apiKeyPlaceholder')}
        />
      </Field>
      {message && <Alert tone="danger">{message}</Alert>}
      <Button type="submit" size="lg" loading={busy} className="mt-1 w-full">
        {busy ? t('login.submitting') : t('login.submit')}
      </Button>
    </form>
  );
}

/** Admin login: username + password, or an API key (spec §2, §6). */
export default function LoginPage() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const [mode, setMode] = useState<Mode>('password');
  const [notice] = useState(() => takeLogoutNotice());

  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <div className="w-full max-w-[400px]">
        <div className="mb-6 flex flex-col items-center text-center">
          <Logo className="size-11" />
          <h1 className="mt-4 text-xl font-semibold tracking-tight">{t('login.title', { site: site.site_title })}</h1>
          <p className="mt-1 text-sm text-muted-foreground">{t('login.subtitle')}</p>
        </div>
        {notice && (
          <Alert tone="warning" title={t('login.sessionEnded')} className="mb-4">
            <span data-testid="logout-notice">
              {notice.message ??
                (notice.cause === 'api-key-invalid' ? t('errors.apiKeyInvalid') : t('errors.adminSessionExpired'))}
            </span>
          </Alert>
        )}
        <div className="rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6">
          <Tabs value={mode} onValueChange={(value) => setMode(value as Mode)}>
            <TabsList aria-label={t('login.modes')} className="mb-5">
              <TabsTrigger value="password">
                <UserRound aria-hidden="true" />
                {t('login.modePassword')}
              </TabsTrigger>
              <TabsTrigger value="apikey">
                <KeyRound aria-hidden="true" />
                {t('login.modeApiKey')}
              </TabsTrigger>
            </TabsList>
            <TabsContent value="password">
              <PasswordForm />
            </TabsContent>
            <TabsContent value="apikey">
              <ApiKeyForm />
            </TabsContent>
          </Tabs>
        </div>
      </div>
    </div>
  );
}
