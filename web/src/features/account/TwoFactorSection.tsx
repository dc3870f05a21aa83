import type { TotpSetupResult } from '@clipnest/contract';
import { Copy, Download, ShieldCheck, ShieldOff } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { LazyQrCode } from '../../components/share/LazyQrCode';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { PasswordInput } from '../../components/ui/password-input';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { downloadBlob } from '../../lib/downloadBlob';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';
import { useRenewRecoveryCodes, useTotpDisable, useTotpEnable, useTotpSetup, useTwoFactorStatus } from './api';
import { Section } from './Section';

/** The ten recovery codes, shown once, with copy and download. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join('\n') + '\n';
  return (
    <div className="flex flex-col gap-3" data-testid="recovery-codes">
      <Alert tone="warning" title={t('adminPanel.account.twoFactor.codesTitle')}>
        {t('adminPanel.account.twoFactor.codesBody')}
      </Alert>
      <ol className="grid grid-cols-2 gap-x-4 gap-y-1.5 rounded-lg bg-surface-muted p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() =>
            void copyText(text).then((copied) =>
              copied ? toast.success(t('common.copied')) : toast.error(t('common.copyFailed')),
            )
          }
        >
          <Copy className="size-4" aria-hidden="true" />
          {t('common.copy')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => downloadBlob(new Blob([text], { type: 'text/plain' }), 'clipnest-recovery-codes.txt')}
        >
          <Download className="size-4" aria-hidden="true" />
          {t('adminPanel.account.twoFactor.download')}
        </Button>
        <Button size="sm" onClick={onDone}>
          {t('adminPanel.account.twoFactor.saved')}
        </Button>
      </div>
    </div>
  );
}

/** Setup: the QR code (and the secret to type), then a code and the password to turn it on. */
function SetupForm({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TotpSetupResult;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const enable = useTotpEnable();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) found.code = t('adminPanel.account.twoFactor.codeInvalid');
    if (!password) found.password = t('adminPanel.account.errors.currentRequired');
    setErrors(found);
    if (found.code || found.password) return;
    try {
      const result = await enable.mutateAsync({ code: code.replace(/\s/g, ''), password });
      onEnabled(result.recovery_codes);
    } catch (error) {
      if (isApiError(error) && error.kind === 'totp_wrong') setErrors({ code: t('login.errors.wrongCode') });
      else if (isApiError(error) && error.kind === 'password_wrong') {
        setErrors({ password: t('adminPanel.account.errors.currentWrong') });
      } else toast.error(errorMessage(error));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" data-testid="totp-setup">
      <ol className="list-decimal space-y-1 ps-5 text-sm text-muted-foreground">
        <li>{t('adminPanel.account.twoFactor.step1')}</li>
        <li>{t('adminPanel.account.twoFactor.step2')}</li>
      </ol>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <LazyQrCode value={setup.otpauth_url} size={176} label={t('adminPanel.account.twoFactor.qrLabel')} />
        <div className="min-w-0 flex-1 text-sm">
          <p className="text-muted-foreground">{t('adminPanel.account.twoFactor.manual')}</p>
          <code
            data-testid="totp-secret"
            className="mt-1 block break-words rounded-md bg-surface-muted px-2 py-1.5 font-mono text-sm"
          >
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
      </div>
      <Field id="totp-code" label={t('adminPanel.account.twoFactor.code')} error={errors.code}>
        <Input
          {...fieldAria('totp-code', errors.code, false)}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          className="max-w-40 font-mono tracking-widest"
        />
      </Field>
      <Field
        id="totp-password"
        label={t('adminPanel.account.currentPassword')}
        help={t('adminPanel.account.twoFactor.passwordHelp')}
        error={errors.password}
      >
        <PasswordInput
          id="totp-password"
          value={password}
          onChange={setPassword}
          invalid={errors.password ? true : undefined}
          autoComplete="current-password"
        />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={enable.isPending}>
          {t('adminPanel.account.twoFactor.enable')}
        </Button>
      </div>
    </form>
  );
}

/** A dialog asking for a code (TOTP or recovery) before turning off or renewing the codes. */
function CodeDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  destructive,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  destructive?: boolean;
  onSubmit: (code: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return setError(t('login.twoFactor.codeRequired'));
    setBusy(true);
    try {
      await onSubmit(code.trim());
      setCode('');
      setError(undefined);
    } catch (e) {
      setError(isApiError(e) && e.kind === 'totp_wrong' ? t('login.errors.wrongCode') : errorMessage(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description={description}>
        <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
          <Field id="code-dialog" label={t('adminPanel.account.twoFactor.codeOrRecovery')} error={error}>
            <Input
              {...fieldAria('code-dialog', error, false)}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              spellCheck={false}
              maxLength={16}
              className="font-mono tracking-widest"
            />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'primary'} loading={busy}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Two-factor sign-in with an authenticator app: status, setup, recovery codes, turning off. */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const setup = useTotpSetup();
  const disable = useTotpDisable();
  const renew = useRenewRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<'disable' | 'renew' | null>(null);

  const on = status.data?.totp_enabled === true;
  let body;
  if (status.isPending) body = <Skeleton className="h-16 w-full" />;
  else if (status.isError) {
    body = (
      <LoadError
        title={t('adminPanel.account.twoFactor.loadFailed')}
        message={errorMessage(status.error)}
        retryLabel={t('common.retry')}
        onRetry={() => void status.refetch()}
      />
    );
  } else if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          setup.reset();
        }}
      />
    );
  } else if (!on && setup.data) {
    body = <SetupForm setup={setup.data} onEnabled={setCodes} onCancel={() => setup.reset()} />;
  } else if (on) {
    const left = status.data?.recovery_codes_left ?? 0;
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-muted-foreground">{t('adminPanel.account.twoFactor.onBody', { count: left })}</p>
        {left <= 3 && <Alert tone="warning">{t('adminPanel.account.twoFactor.fewCodes')}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setDialog('renew')}>
            {t('adminPanel.account.twoFactor.renew')}
          </Button>
          <Button variant="destructive-ghost" onClick={() => setDialog('disable')}>
            <ShieldOff className="size-4" aria-hidden="true" />
            {t('adminPanel.account.twoFactor.disable')}
          </Button>
        </div>
      </div>
    );
  } else {
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm text-muted-foreground">{t('adminPanel.account.twoFactor.offBody')}</p>
        <div className="flex justify-end">
          <Button
            loading={setup.isPending}
            onClick={() => setup.mutate(undefined, { onError: (e) => toast.error(errorMessage(e)) })}
          >
            <ShieldCheck className="size-4" aria-hidden="true" />
            {t('adminPanel.account.twoFactor.setUp')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <Section
      id="two-factor"
      title={t('adminPanel.account.twoFactor.title')}
      badge={
        status.data && (
          <Badge tone={on ? 'success' : 'neutral'} data-testid="two-factor-state">
            {on ? t('adminPanel.account.twoFactor.stateOn') : t('adminPanel.account.twoFactor.stateOff')}
          </Badge>
        )
      }
    >
      {body}
      {on && <p className="mt-3 text-xs text-muted-foreground">{t('adminPanel.account.twoFactor.webdavNote')}</p>}
      <CodeDialog
        open={dialog === 'disable'}
        onOpenChange={(open) => setDialog(open ? 'disable' : null)}
        title={t('adminPanel.account.twoFactor.disableTitle')}
        description={t('adminPanel.account.twoFactor.disableBody')}
        confirmLabel={t('adminPanel.account.twoFactor.disable')}
        destructive
        onSubmit={async (code) => {
          await disable.mutateAsync(code);
          setDialog(null);
          toast.success(t('adminPanel.account.twoFactor.disabled'));
        }}
      />
      <CodeDialog
        open={dialog === 'renew'}
        onOpenChange={(open) => setDialog(open ? 'renew' : null)}
        title={t('adminPanel.account.twoFactor.renewTitle')}
        description={t('adminPanel.account.twoFactor.renewBody')}
        confirmLabel={t('adminPanel.account.twoFactor.renew')}
        onSubmit={async (code) => {
          const result = await renew.mutateAsync(code);
          setDialog(null);
          setCodes(result.recovery_codes);
        }}
      />
    </Section>
  );
}
