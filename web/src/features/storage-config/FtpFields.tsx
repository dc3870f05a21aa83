import { FTP_TLS_MODES, type FtpTlsMode, type StorageConfigView } from '@clipnest/contract';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { useTranslation } from '../../lib/useTranslation';
import type { ConfigErrors, ConfigFormState } from './configForm';
import { HostPortFields, SecretField, SwitchRow } from './formParts';
import { portForTls } from './ftpForm';

/** The ftp type's fields: server, port, TLS mode, user, password, self-signed certificates. */
export function FtpFields({
  state,
  set,
  errors,
  original,
  showSecret,
  onToggleSecret,
}: {
  state: ConfigFormState;
  set: <K extends keyof ConfigFormState>(key: K, value: ConfigFormState[K]) => void;
  errors: ConfigErrors;
  original: StorageConfigView | undefined;
  showSecret: boolean;
  onToggleSecret: () => void;
}) {
  const { t } = useTranslation();
  const editing = original !== undefined;
  return (
    <>
      <HostPortFields
        host={state.host}
        port={state.port}
        errors={errors}
        placeholder="ftp.example.com"
        onHost={(v) => set('host', v)}
        onPort={(v) => set('port', v)}
      />
      <Field id="sc-tls" label={t('files.storage.fields.tls')} help={t(`files.storage.fields.tlsHelp.${state.tls}`)}>
        <Select
          {...fieldAria('sc-tls', undefined, true)}
          value={state.tls}
          onChange={(e) => {
            const tls = e.target.value as FtpTlsMode;
            set('tls', tls);
            set('port', portForTls(state.port, tls));
          }}
        >
          {FTP_TLS_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`files.storage.fields.tlsMode.${mode}`)}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="sc-username"
          label={t('files.storage.fields.username')}
          optional={t('common.optional')}
          error={errors.username}
          help={t('files.storage.fields.ftpUsernameHelp')}
        >
          <Input
            {...fieldAria('sc-username', errors.username, true)}
            value={state.username}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            onChange={(e) => set('username', e.target.value)}
          />
        </Field>
        <SecretField
          id="sc-password"
          label={t('files.storage.fields.password')}
          optional={t('common.optional')}
          error={errors.password}
          help={
            editing && original.has_secret
              ? t('files.storage.fields.secretKeep', { masked: original.secret_access_key_masked || '••••' })
              : undefined
          }
          editing={editing}
          shown={showSecret}
          onToggle={onToggleSecret}
          value={state.password}
          onChange={(v) => set('password', v)}
        />
      </div>
      {state.tls !== 'none' && (
        <SwitchRow
          label={t('files.storage.fields.tlsInsecure')}
          help={t('files.storage.fields.tlsInsecureHelp')}
          checked={state.tls_insecure}
          onCheckedChange={(v) => set('tls_insecure', v)}
        />
      )}
    </>
  );
}
