import type { SettingKey } from '@clipnest/contract';
import type { ReactNode } from 'react';
import { SwitchField } from '../ui/switch';
import { settingId, type SettingsForm } from './useSettingsForm';

/** A boolean setting as a switch row. */
export function SettingSwitch({
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
  return (
    <SwitchField
      id={settingId(settingKey)}
      label={label}
      help={help}
      error={form.errors[settingKey]}
      checked={form.values[settingKey] === true}
      onCheckedChange={(checked) => form.set(settingKey, checked)}
    />
  );
}
