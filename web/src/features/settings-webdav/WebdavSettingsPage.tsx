import { SettingGroup, WEBDAV_UPLOAD_MODES, type SettingKey, type WebdavCheckResult } from '@clipnest/contract';
import {
  Check,
  Copy,
  FolderOpen,
  KeyRound,
  Laptop,
  ListTree,
  ShieldCheck,
  TriangleAlert,
  UserRound,
} from 'lucide-react';
import { RadioGroup } from 'radix-ui';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { fieldProps, SettingsPageFrame, SettingsSection, useSettingsForm } from '../../components/settings';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Field, FieldMessage } from '../../components/ui/field';
import { IconButton } from '../../components/ui/icon-button';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toaster';
import { errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { cn } from '../../lib/cn';
import { serverOrigin, useTwoFactorOn, useWebdavCheck, useWebdavInfo } from './api';
import { clientAddresses } from './clientAddresses';
import { WebdavLocks } from './WebdavLocks';
import { BlockedAddresses } from './BlockedAddresses';

const KEYS: SettingKey[] = ['webdav_upload_mode'];

/** Where each client connects (spec §3): the address as that client wants it, with a copy button. */
function ClientAddresses({ origin }: { origin: URL }) {
  const { t } = useTranslation();
  const host = origin.host;
  const scheme = origin.protocol === 'https:' ? 'HTTPS' : 'HTTP';
  return (
    <SettingsSection
      icon={Laptop}
      title={t('adminPanel.webdav.connectTitle')}
      description={t('adminPanel.webdav.connectBody')}
    >
      {origin.protocol !== 'https:' && <Alert tone="warning">{t('adminPanel.webdav.httpWarning')}</Alert>}
      <ul className="-my-3 divide-y divide-border" data-testid="webdav-addresses">
        {clientAddresses(origin).map(({ client, address, slash }) => {
          const name = t(`adminPanel.webdav.clients.${client}.name`);
          return (
            <li key={client} className="flex flex-col gap-1.5 py-3" data-client={client}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm font-medium">{name}</span>
                {slash && (
                  <Badge tone={slash === 'with' ? 'primary' : 'warning'}>
                    {t(slash === 'with' ? 'adminPanel.webdav.withSlash' : 'adminPanel.webdav.withoutSlash')}
                  </Badge>
                )}
              </div>
              <div className="flex items-center gap-1">
                <code className="min-w-0 flex-1 truncate rounded-md border border-border bg-surface-muted px-2.5 py-1.5 font-mono text-sm select-all">
                  {address}
                </code>
                <IconButton
                  type="button"
                  size="icon-sm"
                  label={t('adminPanel.webdav.copy', { client: name })}
                  onClick={() =>
                    void copyText(address).then((ok) =>
                      ok
                        ? toast.success(t('adminPanel.webdav.copied'))
                        : toast.error(t('adminPanel.webdav.copyFailed')),
                    )
                  }
                >
                  <Copy className="size-4" aria-hidden="true" />
                </IconButton>
              </div>
              <p className="text-xs leading-snug text-muted-foreground">
                {t(`adminPanel.webdav.clients.${client}.hint`, { host, scheme })}
              </p>
            </li>
          );
        })}
      </ul>
    </SettingsSection>
  );
}

function Credentials({ username }: { username: string }) {
  const { t } = useTranslation();
  const twoFactorOn = useTwoFactorOn().data === true;
  const items = [
    ...(twoFactorOn
      ? []
      : [
          {
            icon: UserRound,
            title: t('adminPanel.webdav.credAdminTitle'),
            body: t('adminPanel.webdav.credAdmin', { username }),
          },
        ]),
    { icon: KeyRound, title: t('adminPanel.webdav.credKeyTitle'), body: t('adminPanel.webdav.credKey') },
  ];
  return (
    <SettingsSection
      icon={ShieldCheck}
      title={t('adminPanel.webdav.credentialsTitle')}
      description={t('adminPanel.webdav.credentialsBody')}
    >
      {twoFactorOn && (
        <Alert tone="warning" title={t('adminPanel.webdav.twoFactor.title')}>
          <span data-testid="webdav-two-factor-note">{t('adminPanel.webdav.twoFactor.body')}</span>
        </Alert>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        {items.map(({ icon: Icon, title, body }) => (
          <div key={title} className="flex gap-3 rounded-lg border border-border p-4">
            <div className="grid size-8 shrink-0 place-items-center rounded-full bg-primary-soft text-primary-soft-foreground">
              <Icon className="size-4" aria-hidden="true" />
            </div>
            <div className="min-w-0">
              <p className="text-sm font-medium">{title}</p>
              <p className="mt-1 text-xs leading-snug text-muted-foreground">{body}</p>
            </div>
          </div>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">{t('adminPanel.webdav.credNote')}</p>
    </SettingsSection>
  );
}

function CheckResult({ result }: { result: WebdavCheckResult }) {
  const { t } = useTranslation();
  if (result.problem) {
    return (
      <div data-testid="webdav-check-result">
        <Alert tone="danger">{t(`adminPanel.webdav.problems.${result.problem}`)}</Alert>
      </div>
    );
  }
  const identity = result.identity;
  return (
    <div className="flex flex-col gap-3" data-testid="webdav-check-result" aria-live="polite">
      {identity && (
        <div className="flex flex-wrap items-center gap-2">
          <p className="me-1 text-sm font-medium">{t('adminPanel.webdav.resultFor', { name: identity.name })}</p>
          <Badge tone={identity.can_write ? 'success' : 'neutral'}>
            {t(identity.can_write ? 'adminPanel.webdav.canWrite' : 'adminPanel.webdav.readOnly')}
          </Badge>
          {identity.type === 'apikey' && (
            <Badge>{t('adminPanel.webdav.basePath', { path: identity.basic_path })}</Badge>
          )}
        </div>
      )}
      {result.entries.length === 0 ? (
        <div className="flex gap-3 rounded-lg border border-dashed border-border p-4">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning-soft-foreground" aria-hidden="true" />
          <div>
            <p className="text-sm font-medium">{t('adminPanel.webdav.emptyTitle')}</p>
            {result.empty_reason && (
              <p className="mt-1 text-sm text-muted-foreground">
                {t(`adminPanel.webdav.empty.${result.empty_reason}`, { path: identity?.basic_path ?? '/' })}
              </p>
            )}
          </div>
        </div>
      ) : (
        <div className="rounded-lg border border-border">
          <p className="border-b border-border px-3 py-2 font-mono text-xs text-muted-foreground">
            /dav/ · {t('adminPanel.webdav.items', { count: result.entries.length })}
          </p>
          <ul className="divide-y divide-border">
            {result.entries.map((entry) => (
              <li key={entry.href} className="flex min-w-0 items-center gap-2.5 px-3 py-2 text-sm">
                <FolderOpen className="size-4 shrink-0 text-primary" aria-hidden="true" />
                <span className="truncate font-medium">{entry.name}</span>
                <span className="ms-auto hidden truncate font-mono text-xs text-muted-foreground sm:inline">
                  {entry.href}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** Pick an identity and list what `/dav/` shows it. */
function LiveCheck() {
  const { t } = useTranslation();
  const keyId = useId();
  const [identity, setIdentity] = useState<'admin' | 'apikey'>('admin');
  const [key, setKey] = useState('');
  const [keyError, setKeyError] = useState<string>();
  const check = useWebdavCheck();

  const run = (event: FormEvent) => {
    event.preventDefault();
    if (identity === 'apikey' && key.trim() === '') {
      setKeyError(t('adminPanel.webdav.keyRequired'));
      return;
    }
    setKeyError(undefined);
    check.mutate(identity === 'admin' ? { identity } : { identity, key: key.trim() });
  };

  return (
    <SettingsSection
      icon={ListTree}
      title={t('adminPanel.webdav.checkTitle')}
      description={t('adminPanel.webdav.checkBody')}
    >
      <form noValidate onSubmit={run} className="flex flex-col gap-4" aria-label={t('adminPanel.webdav.checkTitle')}>
        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium">{t('adminPanel.webdav.identity')}</span>
          <ChoiceChips
            value={identity}
            onChange={(next) => {
              setIdentity(next);
              check.reset();
            }}
            label={t('adminPanel.webdav.identity')}
            options={[
              { value: 'admin', label: t('adminPanel.webdav.identityAdmin') },
              { value: 'apikey', label: t('adminPanel.webdav.identityKey') },
            ]}
          />
        </div>
        {identity === 'apikey' && (
          <Field
            id={keyId}
            label={t('adminPanel.webdav.keyLabel')}
            help={t('adminPanel.webdav.keyHelp')}
            error={keyError}
          >
            <Input
              id={keyId}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={key}
              placeholder={t('adminPanel.webdav.keyPlaceholder')}
              aria-invalid={keyError ? true : undefined}
              onChange={(event) => setKey(event.target.value)}
              className="font-mono"
            />
          </Field>
        )}
        <div>
          <Button type="submit" variant="secondary" loading={check.isPending}>
            {!check.isPending && <Check className="size-4" aria-hidden="true" />}
            {check.isPending ? t('adminPanel.webdav.running') : t('adminPanel.webdav.run')}
          </Button>
        </div>
      </form>
      {check.isError && <Alert tone="danger">{errorMessage(check.error)}</Alert>}
      {check.data && <CheckResult result={check.data} />}
    </SettingsSection>
  );
}

/**
 * WebDAV settings (spec §3): the upload mode, where clients connect, with which credentials, a live check, and the
 * locks clients hold (the admin breaks a forgotten one) and the addresses blocked for wrong passwords (cleared here).
 */
export default function WebdavSettingsPage() {
  const { t } = useTranslation();
  const form = useSettingsForm(SettingGroup.WEBDAV, KEYS);
  const info = useWebdavInfo();
  const mode = (form.values.webdav_upload_mode as (typeof WEBDAV_UPLOAD_MODES)[number] | undefined) ?? 'direct';
  const field = fieldProps(form, 'webdav_upload_mode');

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <SettingsPageFrame
        title={t('admin.pages.settingsWebdav')}
        description={t('admin.pageBody.settingsWebdav')}
        form={form}
      >
        <SettingsSection title={t('adminPanel.webdav.uploadMode')} description={t('adminPanel.webdav.uploadModeBody')}>
          <RadioGroup.Root
            id={field.id}
            value={mode}
            onValueChange={(value) => form.set('webdav_upload_mode', value)}
            aria-label={t('adminPanel.webdav.uploadMode')}
            className="grid gap-3 sm:grid-cols-2"
          >
            {WEBDAV_UPLOAD_MODES.map((option) => (
              <RadioGroup.Item
                key={option}
                value={option}
                className={cn(
                  'flex min-h-24 flex-col items-start gap-1 rounded-lg border p-4 text-start transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  'border-border bg-surface hover:bg-surface-hover',
                  'data-[state=checked]:border-primary data-[state=checked]:bg-primary-soft',
                )}
              >
                <span className="flex w-full items-center justify-between gap-2 text-sm font-medium">
                  {t(`adminPanel.webdav.modes.${option}`)}
                  {mode === option && <Check className="size-4 text-primary" aria-hidden="true" />}
                </span>
                <span className="text-xs leading-snug text-muted-foreground">
                  {t(`adminPanel.webdav.modeHelp.${option}`)}
                </span>
              </RadioGroup.Item>
            ))}
          </RadioGroup.Root>
          <FieldMessage id={field.id} error={field.error} />
        </SettingsSection>
      </SettingsPageFrame>
      {info.isPending ? (
        <Skeleton className="h-64 w-full rounded-xl" />
      ) : info.isError ? (
        <Alert tone="danger">{errorMessage(info.error)}</Alert>
      ) : (
        <>
          <ClientAddresses origin={serverOrigin(info.data.public_url)} />
          <Credentials username={info.data.admin_username} />
          <LiveCheck />
          <WebdavLocks />
          <BlockedAddresses />
        </>
      )}
    </div>
  );
}
