import type { StorageConfigView } from '@clipnest/contract';
import { useState } from 'react';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Field, fieldAria } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { useTranslation } from '../../lib/useTranslation';
import type { ConfigErrors, ConfigFormState } from './configForm';
import { HostPortFields, SecretField } from './formParts';
import type { SftpAuth } from './sftpForm';

/** The sftp type's fields: server, sign-in (key or password, explained), remote root and the pinned host key. */
export function SftpFields({
  state,
  errors,
  original,
  set,
}: {
  state: ConfigFormState;
  errors: ConfigErrors;
  original: StorageConfigView | undefined;
  set: <K extends keyof ConfigFormState>(key: K, value: ConfigFormState[K]) => void;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const editing = original !== undefined;
  const pinned = original?.host_key_sha256 ?? '';
  return (
    <>
      <HostPortFields
        host={state.host}
        port={state.port}
        errors={errors}
        placeholder="nas.local"
        onHost={(v) => set('host', v)}
        onPort={(v) => set('port', v)}
      />
      <Field id="sc-username" label={t('files.storage.fields.sftpUsername')} error={errors.username}>
        <Input
          {...fieldAria('sc-username', errors.username, false)}
          value={state.username}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => set('username', e.target.value)}
        />
      </Field>
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium" id="sc-auth-label">
          {t('files.storage.fields.authMethod')}
        </span>
        <ChoiceChips<SftpAuth>
          label={t('files.storage.fields.authMethod')}
          value={state.sftp_auth}
          onChange={(v) => set('sftp_auth', v)}
          options={[
            { value: 'key', label: t('files.storage.fields.authKey') },
            { value: 'password', label: t('files.storage.fields.authPassword') },
          ]}
        />
        <p className="text-xs text-muted-foreground">{t('files.storage.fields.authHelp')}</p>
      </div>
      {state.sftp_auth === 'key' ? (
        <>
          <Field
            id="sc-private_key"
            label={t('files.storage.fields.privateKey')}
            error={errors.private_key}
            help={
              editing && original.has_private_key
                ? t('files.storage.fields.privateKeyKeep')
                : t('files.storage.fields.privateKeyHelp')
            }
          >
            <Textarea
              {...fieldAria('sc-private_key', errors.private_key, true)}
              value={state.private_key}
              spellCheck={false}
              autoComplete="off"
              className="min-h-28 font-mono text-xs"
              placeholder={
                editing && original.has_private_key
                  ? t('files.storage.fields.secretPlaceholder')
                  : '-----BEGIN OPENSSH PRIVATE KEY-----'
              }
              onChange={(e) => set('private_key', e.target.value)}
            />
          </Field>
          <SecretField
            id="sc-passphrase"
            label={t('files.storage.fields.passphrase')}
            optional={t('common.optional')}
            error={errors.passphrase}
            editing={editing}
            shown={shown}
            onToggle={() => setShown((v) => !v)}
            value={state.passphrase}
            onChange={(v) => set('passphrase', v)}
          />
        </>
      ) : (
        <SecretField
          id="sc-password"
          label={t('files.storage.fields.password')}
          error={errors.password}
          help={editing && original.has_password ? t('files.storage.fields.secretKeep', { masked: '••••' }) : undefined}
          editing={editing}
          shown={shown}
          onToggle={() => setShown((v) => !v)}
          value={state.password}
          onChange={(v) => set('password', v)}
        />
      )}
      <Field
        id="sc-root_folder"
        label={t('files.storage.fields.rootFolder')}
        optional={t('common.optional')}
        error={errors.root_folder}
        help={t('files.storage.fields.rootFolderHelp')}
      >
        <Input
          {...fieldAria('sc-root_folder', errors.root_folder, true)}
          value={state.root_folder}
          spellCheck={false}
          autoComplete="off"
          placeholder="/srv/share"
          onChange={(e) => set('root_folder', e.target.value)}
        />
      </Field>
      <Field
        id="sc-host_key_sha256"
        label={t('files.storage.fields.hostKey')}
        optional={pinned ? undefined : t('common.optional')}
        error={errors.host_key_sha256}
        help={pinned ? t('files.storage.fields.hostKeyPinned') : t('files.storage.fields.hostKeyHelp')}
      >
        <Input
          {...fieldAria('sc-host_key_sha256', errors.host_key_sha256, true)}
          value={state.host_key_sha256}
          spellCheck={false}
          autoComplete="off"
          className="font-mono text-xs"
          placeholder="SHA256:…"
          onChange={(e) => set('host_key_sha256', e.target.value)}
        />
      </Field>
    </>
  );
}
