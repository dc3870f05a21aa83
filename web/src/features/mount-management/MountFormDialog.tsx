import { WEBDAV_POLICIES, type MountView, type StorageConfigView } from '@clipnest/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { SwitchField } from '../../components/ui/switch';
import { errorMessage, isApiError } from '../../lib/api';
import {
  buildMountPayload,
  buildMountUpdate,
  initialMountForm,
  MOUNT_FIELD_ORDER,
  serverMountErrors,
  validateMountForm,
  type MountErrors,
  type MountField,
  type MountFormState,
  type Translate,
} from '../fs/mountForm';
import { useSaveMount } from '../fs/mountsApi';

function MountForm({
  original,
  configs: allConfigs,
  onDone,
}: {
  original: MountView | undefined;
  configs: StorageConfigView[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  // The built-in local storage holds the file shares: the server refuses to mount it.
  const configs = allConfigs.filter((c) => !c.is_builtin);
  const tr = t as unknown as Translate;
  const save = useSaveMount();
  const defaultConfig = configs.find((c) => c.is_default)?.id ?? configs[0]?.id ?? '';
  const [state, setState] = useState<MountFormState>(() => initialMountForm(original, defaultConfig));
  const [touched, setTouched] = useState<Partial<Record<MountField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<MountErrors>({});
  const all = validateMountForm(state, tr);
  const shown: MountErrors = { ...serverErrors };
  for (const field of MOUNT_FIELD_ORDER) if ((submitted || touched[field]) && all[field]) shown[field] = all[field];

  const set = <K extends keyof MountFormState>(key: K, value: MountFormState[K]) => {
    setState((s) => ({ ...s, [key]: value }));
    setTouched((s) => ({ ...s, [key]: true }));
    setServerErrors((e) => ({ ...e, [key]: undefined }));
  };
  const aria = (field: MountField) => fieldAria(`mount-${field}`, shown[field], false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const first = MOUNT_FIELD_ORDER.find((f) => all[f]);
    if (first) {
      document.getElementById(`mount-${first}`)?.focus();
      return;
    }
    try {
      const saved = await save.mutateAsync(
        original ? { id: original.id, input: buildMountUpdate(state, original) } : { input: buildMountPayload(state) },
      );
      toast.success(t(original ? 'fs.mounts.updated' : 'fs.mounts.created', { name: saved.name }));
      onDone();
    } catch (error) {
      if (isApiError(error)) setServerErrors(serverMountErrors(error.serverMessage, error.message));
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  return (
    <form id="mount-form" onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="mount-name" label={t('fs.mounts.fields.name')} error={shown.name}>
          <Input {...aria('name')} value={state.name} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field
          id="mount-path"
          label={t('fs.mounts.fields.path')}
          error={shown.path}
          help={t('fs.mounts.fields.pathHelp')}
        >
          <Input
            {...aria('path')}
            value={state.path}
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
            onChange={(e) => set('path', e.target.value)}
          />
        </Field>
      </div>
      <Field
        id="mount-storage_config_id"
        label={t('fs.mounts.fields.storage')}
        error={shown.storage_config_id}
        help={t('fs.mounts.fields.storageHelp')}
      >
        <Select
          {...aria('storage_config_id')}
          value={state.storage_config_id}
          onChange={(e) => set('storage_config_id', e.target.value)}
        >
          {configs.length === 0 && <option value="">{t('fs.mounts.noStorage')}</option>}
          {configs.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({t(`files.storage.types.${c.storage_type}`)})
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="mount-sort_order" label={t('fs.mounts.fields.sortOrder')} error={shown.sort_order}>
          <Input
            {...aria('sort_order')}
            inputMode="numeric"
            value={state.sort_order}
            onChange={(e) => set('sort_order', e.target.value)}
          />
        </Field>
        <Field
          id="mount-cache_ttl"
          label={t('fs.mounts.fields.cacheTtl')}
          error={shown.cache_ttl}
          help={t('fs.mounts.fields.cacheTtlHelp')}
        >
          <Input
            {...aria('cache_ttl')}
            inputMode="numeric"
            value={state.cache_ttl}
            onChange={(e) => set('cache_ttl', e.target.value)}
          />
        </Field>
      </div>
      <Field id="mount-webdav_policy" label={t('fs.mounts.fields.webdavPolicy')}>
        <Select
          id="mount-webdav_policy"
          value={state.webdav_policy}
          onChange={(e) => set('webdav_policy', e.target.value as MountFormState['webdav_policy'])}
        >
          {WEBDAV_POLICIES.map((p) => (
            <option key={p} value={p}>
              {t(`fs.mounts.webdav.${p}`)}
            </option>
          ))}
        </Select>
      </Field>
      <SwitchField
        id="mount-is_active"
        label={t('fs.mounts.fields.active')}
        checked={state.is_active}
        onCheckedChange={(v) => set('is_active', v)}
      />
      <SwitchField
        id="mount-web_proxy"
        label={t('fs.mounts.fields.webProxy')}
        help={t('fs.mounts.fields.webProxyHelp')}
        checked={state.web_proxy}
        onCheckedChange={(v) => set('web_proxy', v)}
      />
      <SwitchField
        id="mount-enable_sign"
        label={t('fs.mounts.fields.enableSign')}
        checked={state.enable_sign}
        onCheckedChange={(v) => set('enable_sign', v)}
      />
      {state.enable_sign && (
        <Field
          id="mount-sign_expires"
          label={t('fs.mounts.fields.signExpires')}
          error={shown.sign_expires}
          optional={t('common.optional')}
        >
          <Input
            {...aria('sign_expires')}
            inputMode="numeric"
            value={state.sign_expires}
            onChange={(e) => set('sign_expires', e.target.value)}
          />
        </Field>
      )}
      <Field id="mount-remark" label={t('fs.mounts.fields.remark')} optional={t('common.optional')}>
        <Textarea id="mount-remark" rows={2} value={state.remark} onChange={(e) => set('remark', e.target.value)} />
      </Field>
    </form>
  );
}

export function MountFormDialog({
  open,
  onOpenChange,
  original,
  configs,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  original?: MountView;
  configs: StorageConfigView[];
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="sm:max-w-2xl"
        title={original ? t('fs.mounts.editTitle', { name: original.name }) : t('fs.mounts.createTitle')}
        description={t('fs.mounts.formDescription')}
        footer={
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="mount-form">
              {original ? t('common.save') : t('common.create')}
            </Button>
          </>
        }
      >
        {open && (
          <MountForm
            key={original?.id ?? 'new'}
            original={original}
            configs={configs}
            onDone={() => onOpenChange(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
