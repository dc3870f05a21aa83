/**
 * Shared parts of the four settings pages (global, preview, WebDAV, site): load one settings group,
 * edit it as a form validated with the contract's schemas, save the changed keys, show server field
 * errors next to the fields. The other settings features import this file (one kit, not four copies).
 */
import {
  SETTINGS,
  SettingGroup,
  type SettingGroupId,
  type SettingKey,
  type SettingView,
  type ValidationErrorData,
} from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, Save } from 'lucide-react';
import { useCallback, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { api, errorMessage, isApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { refreshSiteConfig } from '../../lib/siteConfig';

export type FormValues = Partial<Record<SettingKey, unknown>>;
export type FieldErrors = Partial<Record<SettingKey, string>>;

export const settingsQueryKey = (group: SettingGroupId) => ['admin', 'settings', group] as const;

export function useSettingsGroup(group: SettingGroupId) {
  return useQuery({
    queryKey: settingsQueryKey(group),
    queryFn: ({ signal }) => api.get<SettingView[]>('/admin/settings', { query: { group }, signal }),
    select: (views) => (Array.isArray(views) ? views : []),
  });
}

export function useSaveSettingsGroup(group: SettingGroupId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: FormValues) => api.put<SettingView[]>(`/admin/settings/group/${group}`, values),
    onSuccess: async (views) => {
      client.setQueryData(settingsQueryKey(group), views);
      // Site settings drive the shell (title, favicon, footer, announcement): show them at once.
      if (group === SettingGroup.SITE) await refreshSiteConfig().catch(() => undefined);
    },
  });
}

/** The value a form control holds → the value the API takes (numbers are typed as text). */
export function toApiValue(key: SettingKey, raw: unknown): unknown {
  if (SETTINGS[key].type !== 'number') return raw;
  if (typeof raw === 'number') return raw;
  const text = String(raw ?? '').trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/** Field errors from the contract's schemas, translated where a translation exists. */
export function validateSettings(
  values: FormValues,
  translate: (key: SettingKey, fallback: string) => string,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, raw] of Object.entries(values) as [SettingKey, unknown][]) {
    const parsed = SETTINGS[key].schema.safeParse(toApiValue(key, raw));
    if (!parsed.success) errors[key] = translate(key, parsed.error.issues[0]?.message ?? 'invalid value');
  }
  return errors;
}

/** `data.fields` of a 400 from the settings API → errors by key. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!isApiError(error) || typeof error.data !== 'object' || error.data === null) return {};
  const fields = (error.data as Partial<ValidationErrorData>).fields;
  if (!Array.isArray(fields)) return {};
  const out: FieldErrors = {};
  for (const field of fields) {
    if (field && typeof field.path === 'string' && field.path in SETTINGS) {
      out[field.path as SettingKey] = String(field.message);
    }
  }
  return out;
}

function formValueOf(key: SettingKey, value: unknown): unknown {
  return SETTINGS[key].type === 'number' && typeof value === 'number' ? String(value) : value;
}

function sameValue(key: SettingKey, a: unknown, b: unknown): boolean {
  return JSON.stringify(toApiValue(key, a)) === JSON.stringify(toApiValue(key, b));
}

/** Form state for some keys of one group. */
export function useSettingsForm(group: SettingGroupId, keys: readonly SettingKey[]) {
  const { t, i18n } = useTranslation();
  const query = useSettingsGroup(group);
  const save = useSaveSettingsGroup(group);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);

  const saved = useMemo(() => {
    const out: FormValues = {};
    for (const view of query.data ?? []) {
      if (keys.includes(view.key)) out[view.key] = formValueOf(view.key, view.value);
    }
    return out;
  }, [query.data, keys]);

  // When the saved values change (loaded, saved, refetched) the form starts again from them.
  const [base, setBase] = useState(saved);
  if (base !== saved) {
    setBase(saved);
    setValues(saved);
    setErrors({});
    setSubmitted(false);
  }

  const translate = useCallback(
    (key: SettingKey, fallback: string) => {
      const id = `adminPanel.settings.invalid.${key}`;
      return i18n.exists(id) ? (t as unknown as (k: string) => string)(id) : fallback;
    },
    [t, i18n],
  );

  const changed = useMemo(
    () => keys.filter((key) => key in values && !sameValue(key, values[key], saved[key])),
    [keys, values, saved],
  );

  const set = useCallback(
    (key: SettingKey, value: unknown) => {
      setValues((old) => {
        const next = { ...old, [key]: value };
        // Once the user tried to save, errors follow the input as it changes.
        if (submitted) setErrors(validateSettings(next, translate));
        else setErrors((e) => ({ ...e, [key]: undefined }));
        return next;
      });
    },
    [submitted, translate],
  );

  const reset = useCallback(() => {
    setValues(saved);
    setErrors({});
    setSubmitted(false);
  }, [saved]);

  const submit = useCallback(
    async (event?: FormEvent) => {
      event?.preventDefault();
      setSubmitted(true);
      const found = validateSettings(values, translate);
      setErrors(found);
      const first = keys.find((key) => found[key]);
      if (first) {
        document.getElementById(`setting-${first}`)?.focus();
        return false;
      }
      if (changed.length === 0) return true;
      const body: FormValues = {};
      for (const key of changed) body[key] = toApiValue(key, values[key]);
      try {
        await save.mutateAsync(body);
        toast.success(t('adminPanel.settings.saved'));
        return true;
      } catch (error) {
        const fromServer = serverFieldErrors(error);
        setErrors(fromServer);
        const firstServer = keys.find((key) => fromServer[key]);
        if (firstServer) document.getElementById(`setting-${firstServer}`)?.focus();
        if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
        return false;
      }
    },
    [values, translate, keys, changed, save, t],
  );

  return { query, values, errors, set, reset, submit, dirty: changed.length > 0, saving: save.isPending };
}

export type SettingsForm = ReturnType<typeof useSettingsForm>;

/** The control props of one setting: id, aria wiring and error. */
export function fieldProps(form: SettingsForm, key: SettingKey, hasHelp = true) {
  const id = `setting-${key}`;
  const error = form.errors[key];
  return {
    id,
    error,
    aria: {
      id,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-error` : hasHelp ? `${id}-help` : undefined,
    } as const,
  };
}

export function SettingsSection({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-6">
      <h2 className="text-base font-semibold">{title}</h2>
      {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      <div className="mt-5 flex flex-col gap-5">{children}</div>
    </section>
  );
}

/** A boolean setting: label and help on the left, the switch on the right. */
export function SwitchRow({
  form,
  settingKey,
  label,
  help,
}: {
  form: SettingsForm;
  settingKey: SettingKey;
  label: ReactNode;
  help?: ReactNode;
}) {
  const { id, error } = fieldProps(form, settingKey);
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {help && (
          <p id={`${id}-help`} className="mt-0.5 text-xs leading-snug text-muted-foreground">
            {help}
          </p>
        )}
        {error && (
          <p id={`${id}-error`} role="alert" className="mt-0.5 text-xs font-medium text-destructive-soft-foreground">
            {error}
          </p>
        )}
      </div>
      <Switch
        id={id}
        checked={form.values[settingKey] === true}
        onCheckedChange={(checked) => form.set(settingKey, checked)}
        aria-describedby={help ? `${id}-help` : undefined}
        className="mt-0.5 pointer-coarse:my-2"
      />
    </div>
  );
}

function FormSkeleton() {
  return (
    <div className="flex flex-col gap-6" aria-busy="true">
      {Array.from({ length: 2 }, (_, i) => (
        <div key={i} className="space-y-5 rounded-xl border border-border bg-surface p-6">
          <Skeleton className="h-5 w-40" />
          {Array.from({ length: 3 }, (_, j) => (
            <div key={j} className="space-y-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-10 w-full" />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

/** Page frame: heading, loading and error states, the form and its save bar. */
export function SettingsPageFrame({
  title,
  description,
  form,
  children,
  aside,
}: {
  title: string;
  description: string;
  form: SettingsForm;
  children: ReactNode;
  aside?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      </div>
      {form.query.isPending ? (
        <FormSkeleton />
      ) : form.query.isError ? (
        <Alert tone="danger" title={t('adminPanel.settings.loadFailed')}>
          <p>{errorMessage(form.query.error)}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void form.query.refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : (
        <form noValidate onSubmit={(event) => void form.submit(event)} className="flex flex-col gap-6">
          {children}
          {aside}
          <div
            className={cn(
              'z-10 -mx-4 flex items-center justify-end gap-2 border-t border-border bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-4',
              // Unsaved changes keep the save bar in reach while scrolling.
              form.dirty && 'sticky bottom-0 shadow-md',
            )}
          >
            <p className="me-auto text-xs text-muted-foreground" aria-live="polite">
              {form.dirty ? t('adminPanel.settings.unsaved') : t('adminPanel.settings.upToDate')}
            </p>
            <Button type="button" variant="secondary" onClick={form.reset} disabled={!form.dirty || form.saving}>
              <RotateCcw className="size-4" aria-hidden="true" />
              {t('adminPanel.settings.reset')}
            </Button>
            <Button type="submit" loading={form.saving} disabled={!form.dirty}>
              {!form.saving && <Save className="size-4" aria-hidden="true" />}
              {form.saving ? t('common.saving') : t('common.save')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
