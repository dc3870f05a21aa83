import type { SecondFactorRequired } from '@clipnest/contract';
import { ArrowLeft, Fingerprint, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { passkeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';
import { LoginError, loginWithPassword, passkeySignature } from './authApi';
import type { LoginFailure } from './loginErrors';

/**
 * The second step of a sign-in with two-factor on: a code from the authenticator app (or a recovery code), or a
 * passkey. The password typed in the first step is sent again with it (the server keeps no half-signed-in state).
 */
export function SecondFactorStep({
  username,
  password,
  methods,
  onBack,
}: {
  username: string;
  password: string;
  methods: SecondFactorRequired['methods'];
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const passkey = methods.includes('passkey') && passkeysSupported();

  useEffect(() => {
    input.current?.focus();
  }, [recovery]);

  async function finish(second: Parameters<typeof loginWithPassword>[2]) {
    setFailure(null);
    setBusy(true);
    try {
      await loginWithPassword(username, password, second);
      toast.success(t('login.success'));
    } catch (error) {
      setBusy(false);
      if (passkeyCancelled(error)) return;
      setFailure(error instanceof LoginError ? error.failure : { key: 'login.errors.loginFailed' });
      setCode('');
      input.current?.focus();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim();
    if (!value) {
      setFieldError(recovery ? t('login.twoFactor.recoveryRequired') : t('login.twoFactor.codeRequired'));
      input.current?.focus();
      return;
    }
    setFieldError(undefined);
    void finish({ totp: value });
  }

  async function signWithPasskey() {
    setFailure(null);
    try {
      const assertion = await passkeySignature();
      await finish({ passkey: assertion });
    } catch (error) {
      if (!passkeyCancelled(error)) setFailure({ key: 'login.errors.loginFailed' });
    }
  }

  const message = failure ? ('key' in failure ? t(failure.key) : failure.text) : null;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="second-factor-step">
      <div className="flex items-start gap-3">
        <div className="grid size-10 shrink-0 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <ShieldCheck className="size-5" aria-hidden="true" />
        </div>
        <div className="min-w-0">
          <h2 className="font-semibold">{t('login.twoFactor.title')}</h2>
          <p className="mt-0.5 text-sm text-muted-foreground">
            {recovery ? t('login.twoFactor.recoveryBody') : t('login.twoFactor.body')}
          </p>
        </div>
      </div>
      <Field
        id={`${id}-code`}
        label={recovery ? t('login.twoFactor.recoveryLabel') : t('login.twoFactor.codeLabel')}
        error={fieldError}
      >
        <Input
          {...fieldAria(`${id}-code`, fieldError, false)}
          ref={input}
          name="totp"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize={recovery ? 'characters' : 'none'}
          spellCheck={false}
          maxLength={16}
          placeholder={recovery ? 'XXXXX-XXXXX' : '123456'}
          className="font-mono text-lg tracking-widest"
        />
      </Field>
      {message && <Alert tone="danger">{message}</Alert>}
      <Button type="submit" size="lg" loading={busy} className="w-full">
        {busy ? t('login.submitting') : t('login.twoFactor.verify')}
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="self-center"
        onClick={() => {
          setRecovery((r) => !r);
          setCode('');
          setFieldError(undefined);
        }}
      >
        {recovery ? t('login.twoFactor.useCode') : t('login.twoFactor.useRecovery')}
      </Button>
      {passkey && (
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          onClick={() => void signWithPasskey()}
          disabled={busy}
        >
          <Fingerprint className="size-4" aria-hidden="true" />
          {t('login.twoFactor.usePasskey')}
        </Button>
      )}
      <Button type="button" variant="ghost" size="sm" className="self-start" onClick={onBack}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        {t('login.twoFactor.back')}
      </Button>
    </form>
  );
}
