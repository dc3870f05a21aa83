import {
  PROVIDER_PRESETS,
  STORAGE_TYPES,
  type StorageConfigView,
  type StorageProvider,
  type StorageType,
} from '@clipnest/contract';
import { useIsMutating } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { errorMessage, isApiError } from '../../lib/api';
import { storageConfigName } from '../../lib/storageConfigName';
import { SAVE_MUTATION_KEY, useCreateStorageConfig, useUpdateStorageConfig } from './api';
import { SecretField, SwitchRow } from './formParts';
import { FtpFields } from './FtpFields';
import { SftpFields } from './SftpFields';
import { RcloneFields } from './RcloneFields';
import {
  applyProvider,
  applyRegion,
  buildCreatePayload,
  buildUpdatePayload,
  CAPACITY_UNITS,
  initialConfigForm,
  portAfterTypeChange,
  presetFor,
  serverConfigErrors,
  validateConfigForm,
  type CapacityUnit,
  type ConfigErrors,
  type ConfigField,
  type ConfigFormState,
  type Translate,
} from './configForm';

const FIELD_ORDER: ConfigField[] = [
  'name',
  'root_path',
  'host',
  'port',
  'endpoint_url',
  'username',
  'password',
  'private_key',
  'passphrase',
  'root_folder',
  'host_key_sha256',
  'rclone_config',
  'endpoint',
  'region',
  'bucket',
  'access_key_id',
  'secret_access_key',
  'default_folder',
  'custom_host',
  'signature_expires_in',
  'capacity',
];

function ConfigForm({
  original,
  onDone,
  onTypeChange,
  initialType,
}: {
  initialType: StorageType;
  original: StorageConfigView | undefined;
  onDone: (saved: StorageConfigView) => void;
  onTypeChange: (type: StorageType) => void;
}) {
  const { t } = useTranslation();
  const tr = t as unknown as Translate;
  const editing = original !== undefined;
  const [state, setState] = useState<ConfigFormState>(() => initialConfigForm(original, initialType));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ConfigErrors>({});
  const [showSecret, setShowSecret] = useState(false);
  const create = useCreateStorageConfig();
  const update = useUpdateStorageConfig();
  const busy = create.isPending || update.isPending;
  const errors: ConfigErrors = { ...(submitted ? validateConfigForm(state, editing, tr) : {}), ...serverErrors };

  const set = <K extends keyof ConfigFormState>(key: K, value: ConfigFormState[K]) => {
    setState((s) => ({ ...s, [key]: value, ...(key === 'endpoint' ? { endpointAuto: false } : {}) }));
    setServerErrors((e) => ({ ...e, [key === 'capacity_unit' ? 'capacity' : key]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerErrors({});
    const local = validateConfigForm(state, editing, tr);
    const first = FIELD_ORDER.find((f) => local[f]);
    if (first) {
      document.getElementById(`sc-${first}`)?.focus();
      return;
    }
    try {
      const saved = editing
        ? await update.mutateAsync({ id: original.id, input: buildUpdatePayload(state, original) })
        : await create.mutateAsync(buildCreatePayload(state));
      toast.success(
        editing
          ? t('files.storage.updated', { name: storageConfigName(t, saved) })
          : t('files.storage.created', { name: storageConfigName(t, saved) }),
      );
      onDone(saved);
    } catch (error) {
      const fields = isApiError(error) ? serverConfigErrors(error.data) : {};
      if (Object.keys(fields).length > 0) setServerErrors(fields);
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  const input = (field: ConfigField, props: Record<string, unknown> = {}) => ({
    ...fieldAria(`sc-${field}`, errors[field], false),
    ...props,
  });
  const preset = presetFor(state.provider);
  const s3 = state.storage_type === 's3';
  const local = state.storage_type === 'local';
  const webdav = state.storage_type === 'webdav';
  const ftp = state.storage_type === 'ftp';
  const sftp = state.storage_type === 'sftp';
  const rclone = state.storage_type === 'rclone';

  return (
    <form id="storage-config-form" onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      {!editing && (
        <Field id="sc-type" label={t('files.storage.fields.type')}>
          <Select
            id="sc-type"
            value={state.storage_type}
            onChange={(e) => {
              const type = e.target.value as StorageType;
              setState((s) => ({ ...s, storage_type: type, port: portAfterTypeChange(s.port, type) }));
              setServerErrors({});
              onTypeChange(type);
            }}
          >
            {STORAGE_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`files.storage.types.${type}`)}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Field id="sc-name" label={t('files.storage.fields.name')} error={errors.name}>
        <Input
          {...input('name')}
          value={state.name}
          maxLength={100}
          onChange={(e) => set('name', e.target.value)}
          placeholder={t('files.storage.fields.namePlaceholder')}
        />
      </Field>
      {webdav && (
        <>
          <Field
            id="sc-endpoint_url"
            label={t('files.storage.fields.endpointUrl')}
            error={errors.endpoint_url}
            help={t('files.storage.fields.endpointUrlHelp')}
          >
            <Input
              {...input('endpoint_url')}
              value={state.endpoint_url}
              inputMode="url"
              spellCheck={false}
              autoComplete="off"
              placeholder="https://nas.local/dav/"
              onChange={(e) => set('endpoint_url', e.target.value)}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="sc-username"
              label={t('files.storage.fields.username')}
              optional={t('common.optional')}
              error={errors.username}
            >
              <Input
                {...input('username')}
                value={state.username}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => set('username', e.target.value)}
              />
            </Field>
            <SecretField
              id="sc-password"
              label={t('files.storage.fields.password')}
              error={errors.password}
              help={
                editing && original.has_secret
                  ? t('files.storage.fields.secretKeep', { masked: original.secret_access_key_masked || '••••' })
                  : undefined
              }
              editing={editing}
              shown={showSecret}
              onToggle={() => setShowSecret((v) => !v)}
              value={state.password}
              onChange={(v) => set('password', v)}
            />
          </div>
          <SwitchRow
            label={t('files.storage.fields.tlsInsecure')}
            help={t('files.storage.fields.tlsInsecureHelp')}
            checked={state.tls_insecure}
            onCheckedChange={(v) => set('tls_insecure', v)}
          />
        </>
      )}
      {ftp && (
        <FtpFields
          state={state}
          set={set}
          errors={errors}
          original={original}
          showSecret={showSecret}
          onToggleSecret={() => setShowSecret((v) => !v)}
        />
      )}
      {sftp && <SftpFields state={state} errors={errors} original={original} set={set} />}
      {rclone && (
        <RcloneFields
          value={state.rclone_config}
          error={errors.rclone_config}
          original={original}
          onChange={(v) => set('rclone_config', v)}
        />
      )}
      {local && (
        <Field
          id="sc-root_path"
          label={t('files.storage.fields.rootPath')}
          error={errors.root_path}
          help={
            original?.is_builtin ? t('files.storage.fields.rootPathBuiltin') : t('files.storage.fields.rootPathHelp')
          }
        >
          <Input
            {...input('root_path')}
            value={state.root_path}
            readOnly={original?.is_builtin}
            placeholder="/srv/clipnest/share"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => set('root_path', e.target.value)}
          />
        </Field>
      )}
      {s3 && (
        <>
          <Field
            id="sc-provider"
            label={t('files.storage.fields.provider')}
            help={t('files.storage.fields.providerHelp')}
          >
            <Select
              id="sc-provider"
              aria-describedby="sc-provider-help"
              value={state.provider}
              onChange={(e) => setState((s) => applyProvider(s, e.target.value as StorageProvider))}
            >
              {PROVIDER_PRESETS.map((p) => (
                <option key={p.provider} value={p.provider}>
                  {t(`files.storage.providers.${p.provider}`)}
                </option>
              ))}
            </Select>
          </Field>
          <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
            <Field
              id="sc-endpoint"
              label={t('files.storage.fields.endpoint')}
              error={errors.endpoint}
              help={
                preset.endpoint.includes('{account_id}')
                  ? t('files.storage.fields.endpointAccountHelp')
                  : preset.endpoint
                    ? t('files.storage.fields.endpointHelp', { pattern: preset.endpoint })
                    : undefined
              }
            >
              <Input
                {...input('endpoint')}
                value={state.endpoint}
                inputMode="url"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => set('endpoint', e.target.value)}
                placeholder="https://s3.example.com"
              />
            </Field>
            <Field id="sc-region" label={t('files.storage.fields.region')} error={errors.region}>
              <Input
                {...input('region')}
                value={state.region}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => {
                  setState((s) => applyRegion(s, e.target.value));
                  setServerErrors((x) => ({ ...x, region: undefined }));
                }}
              />
            </Field>
          </div>
          <Field id="sc-bucket" label={t('files.storage.fields.bucket')} error={errors.bucket}>
            <Input
              {...input('bucket')}
              value={state.bucket}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => set('bucket', e.target.value)}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="sc-access_key_id" label={t('files.storage.fields.accessKeyId')} error={errors.access_key_id}>
              <Input
                {...input('access_key_id')}
                value={state.access_key_id}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => set('access_key_id', e.target.value)}
              />
            </Field>
            <SecretField
              id="sc-secret_access_key"
              label={t('files.storage.fields.secret')}
              error={errors.secret_access_key}
              help={
                editing
                  ? t('files.storage.fields.secretKeep', { masked: original.secret_access_key_masked || '—' })
                  : undefined
              }
              editing={editing}
              shown={showSecret}
              onToggle={() => setShowSecret((v) => !v)}
              value={state.secret_access_key}
              onChange={(v) => set('secret_access_key', v)}
            />
          </div>
          <SwitchRow
            label={t('files.storage.fields.pathStyle')}
            help={t('files.storage.fields.pathStyleHelp')}
            checked={state.path_style}
            onCheckedChange={(v) => set('path_style', v)}
          />
        </>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="sc-default_folder"
          label={t('files.storage.fields.defaultFolder')}
          optional={t('common.optional')}
          error={errors.default_folder}
        >
          <Input
            {...input('default_folder')}
            value={state.default_folder}
            placeholder="uploads/"
            spellCheck={false}
            onChange={(e) => set('default_folder', e.target.value)}
          />
        </Field>
        {s3 && (
          <Field
            id="sc-custom_host"
            label={t('files.storage.fields.customHost')}
            optional={t('common.optional')}
            error={errors.custom_host}
          >
            <Input
              {...input('custom_host')}
              value={state.custom_host}
              inputMode="url"
              placeholder="https://cdn.example.com"
              spellCheck={false}
              onChange={(e) => set('custom_host', e.target.value)}
            />
          </Field>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {s3 && (
          <Field
            id="sc-signature_expires_in"
            label={t('files.storage.fields.signature')}
            error={errors.signature_expires_in}
          >
            <Input
              {...input('signature_expires_in')}
              inputMode="numeric"
              value={state.signature_expires_in}
              onChange={(e) => set('signature_expires_in', e.target.value)}
            />
          </Field>
        )}
        <Field
          id="sc-capacity"
          label={t('files.storage.fields.capacity')}
          optional={t('files.storage.fields.capacityOptional')}
          error={errors.capacity}
        >
          <div className="flex gap-2">
            <Input
              {...input('capacity')}
              inputMode="decimal"
              value={state.capacity}
              placeholder="∞"
              onChange={(e) => set('capacity', e.target.value)}
            />
            <Select
              aria-label={t('files.storage.fields.capacityUnit')}
              className="w-24 shrink-0"
              value={state.capacity_unit}
              onChange={(e) => set('capacity_unit', e.target.value as CapacityUnit)}
            >
              {Object.keys(CAPACITY_UNITS).map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </Select>
          </div>
        </Field>
      </div>
      {!editing && (
        <label className="flex min-h-10 cursor-pointer items-center gap-3 text-sm">
          <Checkbox checked={state.is_default} onCheckedChange={(v) => set('is_default', v === true)} />
          {t('files.storage.fields.makeDefault')}
        </label>
      )}
      <div className="sr-only" aria-live="polite">
        {busy ? t('common.saving') : ''}
      </div>
    </form>
  );
}

export function StorageConfigFormDialog({
  open,
  onOpenChange,
  original,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  original?: StorageConfigView;
}) {
  const { t } = useTranslation();
  const busy = useIsMutating({ mutationKey: SAVE_MUTATION_KEY }) > 0;
  const [createType, setCreateType] = useState<StorageType>('s3');
  const type = original?.storage_type ?? createType;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="sm:max-w-2xl"
        title={
          original
            ? t('files.storage.editTitle', { name: storageConfigName(t, original) })
            : t('files.storage.createTitle')
        }
        description={
          type === 'local'
            ? t('files.storage.formDescriptionLocal')
            : type === 'webdav'
              ? t('files.storage.formDescriptionWebdav')
              : type === 'ftp'
                ? t('files.storage.formDescriptionFtp')
                : type === 'sftp'
                  ? t('files.storage.formDescriptionSftp')
                  : type === 'rclone'
                    ? t('files.storage.formDescriptionRclone')
                    : t('files.storage.formDescription')
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="storage-config-form" loading={busy}>
              {original ? t('common.save') : t('common.create')}
            </Button>
          </>
        }
      >
        {open && (
          <ConfigForm
            key={original?.id ?? 'new'}
            original={original}
            onDone={() => onOpenChange(false)}
            onTypeChange={setCreateType}
            initialType={createType}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
