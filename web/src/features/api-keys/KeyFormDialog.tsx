import {
  KEY_CUSTOM_DAYS_MAX,
  KEY_ROLES,
  Permission,
  type ApiKeyView,
  type KeyRole,
  type PermissionName,
} from '@clipnest/contract';
import { FolderOpen } from 'lucide-react';
import { lazy, Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { SwitchField } from '../../components/ui/switch';
import { isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCreateApiKey, useUpdateApiKey } from './api';
import {
  applyRole,
  buildCreatePayload,
  buildUpdatePayload,
  groupMask,
  initialKeyForm,
  isCustomMix,
  PERMISSION_GROUPS,
  serverFieldErrors,
  togglePermission,
  validateKeyForm,
  type ExpiryChoice,
  type KeyFormErrors,
  type KeyFormField,
  type KeyFormState,
} from './keyForm';

// The tree picker (and the fs texts it needs) loads only when the admin opens it.
const BasePathPicker = lazy(() => import('./BasePathPicker'));

const FIELD_ORDER: KeyFormField[] = ['name', 'permissions', 'customDays', 'customKey', 'basicPath'];

function PermissionRow({
  name,
  checked,
  onChange,
}: {
  name: PermissionName;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <label
      htmlFor={id}
      className="flex min-h-10 cursor-pointer items-center gap-3 rounded-md px-2 text-sm hover:bg-surface-hover"
    >
      <Checkbox id={id} checked={checked} onCheckedChange={(value) => onChange(value === true)} />
      <span>{t(`permissions.${name}`)}</span>
    </label>
  );
}

function PermissionGroup({
  group,
  mask,
  onToggle,
}: {
  group: (typeof PERMISSION_GROUPS)[number];
  mask: number;
  onToggle: (bits: number, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const bits = groupMask(group.permissions);
  const selected = mask & bits;
  const state = selected === 0 ? false : selected === bits ? true : 'indeterminate';
  return (
    <fieldset className="rounded-lg border border-border p-2">
      <legend className="sr-only">{t(`permissions.groups.${group.id}`)}</legend>
      <label
        htmlFor={id}
        className="flex min-h-10 cursor-pointer items-center gap-3 rounded-md px-2 text-sm font-semibold hover:bg-surface-hover"
      >
        <Checkbox id={id} checked={state} onCheckedChange={() => onToggle(bits, state !== true)} />
        {t(`permissions.groups.${group.id}`)}
      </label>
      <div className="ms-5 grid gap-0.5 sm:grid-cols-2">
        {group.permissions.map((name) => (
          <PermissionRow
            key={name}
            name={name}
            checked={(mask & Permission[name]) !== 0}
            onChange={(on) => onToggle(Permission[name], on)}
          />
        ))}
      </div>
    </fieldset>
  );
}

function KeyFormContent({
  original,
  onDone,
  onCreated,
}: {
  original?: ApiKeyView;
  onDone: () => void;
  onCreated: (key: ApiKeyView) => void;
}) {
  const { t, i18n } = useTranslation();
  const mode = original ? 'edit' : 'create';
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<KeyFormState>(() => initialKeyForm(original));
  const [errors, setErrors] = useState<KeyFormErrors>({});
  const [serverErrors, setServerErrors] = useState<KeyFormErrors>({});
  const [picking, setPicking] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateApiKey();
  const update = useUpdateApiKey();
  const busy = create.isPending || update.isPending;

  const errorText = (field: KeyFormField): string | undefined => {
    const error = errors[field];
    const server = error ?? serverErrors[field];
    return server && t(server.key, server.params ?? {});
  };

  function change(next: KeyFormState) {
    setState(next);
    setServerErrors({});
    // After a failed submit, errors follow the user's edits live.
    if (submitted) setErrors(validateKeyForm(next, mode, original));
  }

  function focusFirstError(found: KeyFormErrors) {
    const first = FIELD_ORDER.find((field) => found[field]);
    if (!first) return;
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    const found = validateKeyForm(state, mode, original);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(found);
      return;
    }
    try {
      if (original) {
        const input = buildUpdatePayload(state, original);
        if (Object.keys(input).length > 0) {
          const saved = await update.mutateAsync({ id: original.id, input });
          toast.success(t('keys.updated', { name: saved.name }));
        }
        onDone();
      } else {
        const created = await create.mutateAsync(buildCreatePayload(state));
        toast.success(t('keys.created', { name: created.name }));
        onCreated(created);
      }
    } catch (error) {
      if (isApiError(error) && error.loggedOut) return;
      const fields = isApiError(error) ? serverFieldErrors(error.data) : {};
      if (Object.keys(fields).length > 0) setServerErrors(fields);
      setFormError(error instanceof Error ? error.message : t('errors.unknown'));
    }
  }

  const roleOptions = KEY_ROLES.map((role: KeyRole) => ({ value: role, label: t(`roles.${role}`) }));
  const expiryOptions: { value: ExpiryChoice; label: string }[] = [
    ...(original
      ? [
          {
            value: 'keep' as const,
            label: t('keys.form.expiryKeep', {
              current: original.expires_at
                ? formatDateTime(original.expires_at, i18n.language)
                : t('keys.neverExpires'),
            }),
          },
        ]
      : []),
    { value: '1', label: t('keys.form.expiry1') },
    { value: '7', label: t('keys.form.expiry7') },
    { value: '30', label: t('keys.form.expiry30') },
    { value: 'never', label: t('keys.form.expiryNever') },
    { value: 'custom', label: t('keys.form.expiryCustom') },
  ];
  const hasErrors = Object.keys(errors).length > 0;
  const nameError = errorText('name');
  const customDaysError = errorText('customDays');
  const customKeyError = errorText('customKey');
  const basicPathError = errorText('basicPath');
  const permissionsError = errorText('permissions');

  const formId = `${id}-form`;
  return (
    <DialogContent
      title={original ? t('keys.form.editTitle', { name: original.name }) : t('keys.form.createTitle')}
      description={t('keys.form.description')}
      className="sm:max-w-2xl"
      footer={
        <>
          <Button variant="secondary" onClick={onDone} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={busy}>
            {original ? t('keys.form.submitEdit') : t('keys.form.submitCreate')}
          </Button>
        </>
      }
    >
      <form ref={formRef} id={formId} onSubmit={submit} noValidate className="flex flex-col gap-5">
        <Field id={`${id}-name`} label={t('keys.form.name')} error={nameError}>
          <Input
            {...fieldAria(`${id}-name`, nameError, false)}
            data-field="name"
            value={state.name}
            placeholder={t('keys.form.namePlaceholder')}
            autoComplete="off"
            maxLength={200}
            onChange={(event) => change({ ...state, name: event.target.value })}
          />
        </Field>

        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium" id={`${id}-role-label`}>
            {t('keys.form.role')}
          </span>
          <ChoiceChips
            value={state.role}
            onChange={(role) => change(applyRole(state, role))}
            options={roleOptions}
            label={t('keys.form.role')}
          />
          <p className="text-xs text-muted-foreground">
            {isCustomMix(state) ? t('keys.form.customMix') : t('keys.form.roleHelp')}
          </p>
        </div>

        <div className="flex flex-col gap-2" role="group" aria-labelledby={`${id}-perm-label`}>
          <div className="flex items-center justify-between gap-2">
            <span className="text-sm font-medium" id={`${id}-perm-label`}>
              {t('keys.form.permissions')}
            </span>
            <div className="flex gap-1">
              <Button
                variant="ghost"
                size="sm"
                data-field="permissions"
                onClick={() => change({ ...state, permissions: Object.values(Permission).reduce((a, b) => a | b, 0) })}
              >
                {t('keys.form.selectAll')}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => change({ ...state, permissions: 0 })}>
                {t('keys.form.clearAll')}
              </Button>
            </div>
          </div>
          <div className="grid gap-2">
            {PERMISSION_GROUPS.map((group) => (
              <PermissionGroup
                key={group.id}
                group={group}
                mask={state.permissions}
                onToggle={(bits, on) => change(togglePermission(state, bits, on))}
              />
            ))}
          </div>
          {permissionsError && (
            <p className="text-xs font-medium text-destructive-soft-foreground">{permissionsError}</p>
          )}
        </div>

        <div className="flex flex-col gap-2">
          <span className="text-sm font-medium">{t('keys.form.expiry')}</span>
          <ChoiceChips
            value={state.expiry}
            onChange={(expiry) => change({ ...state, expiry })}
            options={expiryOptions}
            label={t('keys.form.expiry')}
          />
          {state.expiry === 'custom' && (
            <Field
              id={`${id}-days`}
              label={t('keys.form.customDays')}
              error={customDaysError}
              className="mt-1 max-w-56"
            >
              <div className="relative">
                <Input
                  {...fieldAria(`${id}-days`, customDaysError, false)}
                  data-field="customDays"
                  inputMode="numeric"
                  type="number"
                  min={1}
                  max={KEY_CUSTOM_DAYS_MAX}
                  step={1}
                  value={state.customDays}
                  className="pe-12"
                  onChange={(event) => change({ ...state, customDays: event.target.value })}
                />
                <span className="pointer-events-none absolute end-3 top-1/2 -translate-y-1/2 text-sm text-muted-foreground">
                  {t('keys.form.customDaysSuffix')}
                </span>
              </div>
            </Field>
          )}
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          {!original && (
            <Field
              id={`${id}-custom`}
              label={t('keys.form.customKey')}
              optional={t('common.optional')}
              help={t('keys.form.customKeyHelp')}
              error={customKeyError}
              className="sm:col-span-2"
            >
              <Input
                {...fieldAria(`${id}-custom`, customKeyError, true)}
                data-field="customKey"
                value={state.customKey}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                onChange={(event) => change({ ...state, customKey: event.target.value })}
              />
            </Field>
          )}
          <Field
            id={`${id}-path`}
            label={t('keys.form.basicPath')}
            help={t('keys.form.basicPathHelp')}
            error={basicPathError}
            className="sm:col-span-2"
          >
            <div className="flex gap-2">
              <Input
                {...fieldAria(`${id}-path`, basicPathError, true)}
                data-field="basicPath"
                value={state.basicPath}
                autoComplete="off"
                spellCheck={false}
                className="min-w-0 flex-1 font-mono"
                onChange={(event) => change({ ...state, basicPath: event.target.value })}
              />
              <Button
                type="button"
                variant="secondary"
                className="shrink-0"
                aria-label={t('keys.form.browseLabel')}
                title={t('keys.form.browseLabel')}
                onClick={() => setPicking(true)}
              >
                <FolderOpen className="size-4" aria-hidden="true" />
                {t('keys.form.browse')}
              </Button>
            </div>
          </Field>
          {picking && (
            <Suspense fallback={null}>
              <BasePathPicker
                start={state.basicPath.trim() || '/'}
                title={t('keys.form.pickTitle')}
                pickLabel={t('keys.form.pickHere')}
                onClose={() => setPicking(false)}
                onPick={(folder) => {
                  change({ ...state, basicPath: folder });
                  setPicking(false);
                }}
              />
            </Suspense>
          )}
        </div>

        <div className="flex flex-col gap-2 rounded-lg border border-border px-3 py-2">
          <SwitchField
            id={`${formId}-guest`}
            className="py-1"
            label={t('keys.form.guest')}
            help={t('keys.form.guestHelp')}
            checked={state.isGuest}
            onCheckedChange={(isGuest) => change({ ...state, isGuest })}
          />
          <div className="h-px bg-border" />
          <SwitchField
            id={`${formId}-enabled`}
            className="py-1"
            label={t('keys.form.enabled')}
            help={t('keys.form.enabledHelp')}
            checked={state.enabled}
            onCheckedChange={(enabled) => change({ ...state, enabled })}
          />
        </div>

        {(formError || (hasErrors && submitted)) && (
          <Alert tone="danger">{formError ?? t('keys.form.fixErrors')}</Alert>
        )}
      </form>
    </DialogContent>
  );
}

export function KeyFormDialog({
  open,
  onOpenChange,
  original,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  original?: ApiKeyView;
  onCreated: (key: ApiKeyView) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <KeyFormContent
          key={original?.id ?? 'new'}
          original={original}
          onDone={() => onOpenChange(false)}
          onCreated={onCreated}
        />
      )}
    </Dialog>
  );
}
