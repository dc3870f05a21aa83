import type { SettingKey } from '@clipnest/contract';
import type { ReactNode } from 'react';
import { ChoiceChips } from '../ui/choice-chips';
import { FieldMessage } from '../ui/field';
import { fieldProps, type SettingsForm } from './useSettingsForm';

/** A setting with a few named values, as a row of chips; help (or the error) under it. */
export function SettingChoices<T extends string>({
  form,
  settingKey,
  label,
  showLabel = true,
  value,
  options,
  help,
}: {
  form: SettingsForm;
  settingKey: SettingKey;
  label: string;
  /** false where the section heading already names the setting (the chips keep `label` for screen readers). */
  showLabel?: boolean;
  value: T;
  options: { value: T; label: ReactNode }[];
  help?: ReactNode;
}) {
  const { id, error } = fieldProps(form, settingKey, Boolean(help));
  return (
    <div className="flex flex-col gap-2">
      {showLabel && <span className="text-sm font-medium">{label}</span>}
      <ChoiceChips
        id={id}
        label={label}
        value={value}
        onChange={(next) => form.set(settingKey, next)}
        options={options}
      />
      <FieldMessage id={id} help={help} error={error} />
    </div>
  );
}
