/**
 * Form state for the settings pages (global, preview, WebDAV, site, backup schedule): load one settings
 * group, edit some of its keys, validate with the contract's schemas, save the changed keys, keep server
 * field errors next to the fields.
 */
import { SettingGroup, type SettingGroupId, type SettingKey, type SettingView } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { fieldAria } from '../ui/field';
import { queueable } from '../../lib/offline/queueable';
import { api, errorMessage, isApiError } from '../../lib/api';
import { refreshSiteConfig } from '../../lib/siteConfig';
import {
  formValueOf,
  sameValue,
  serverFieldErrors,
  toApiValue,
  validateSettings,
  type FieldErrors,
  type FormValues,
} from './settingsValues';

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
    mutationFn: (values: FormValues) => {
      const endpoint = `/admin/settings/group/${group}`;
      return queueable({ type: 'updateGroupSettings', endpoint, method: 'PUT', data: values }, () =>
        api.put<SettingView[]>(endpoint, values),
      );
    },
    onSuccess: async (views) => {
      client.setQueryData(settingsQueryKey(group), views);
      // Site settings drive the shell (title, favicon, footer, announcement): show them at once.
      if (group === SettingGroup.SITE) await refreshSiteConfig().catch(() => undefined);
    },
  });
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
        document.getElementById(settingId(first))?.focus();
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
        if (firstServer) document.getElementById(settingId(firstServer))?.focus();
        if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
        return false;
      }
    },
    [values, translate, keys, changed, save, t],
  );

  return { query, values, errors, set, reset, submit, dirty: changed.length > 0, saving: save.isPending };
}

export type SettingsForm = ReturnType<typeof useSettingsForm>;

/** The element id of a setting's control (the form focuses it on an error). */
export function settingId(key: SettingKey): string {
  return `setting-${key}`;
}

/** The control props of one setting: id, aria wiring and error. */
export function fieldProps(form: SettingsForm, key: SettingKey, hasHelp = true) {
  const id = settingId(key);
  const error = form.errors[key];
  return { id, error, aria: fieldAria(id, error, hasHelp) };
}
