import type { SettingKey } from '@clipnest/contract';
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { Field, type fieldAria } from '../ui/field';
import { Input, Textarea } from '../ui/input';
import { cn } from '../../lib/cn';
import { fieldProps, type SettingsForm } from './useSettingsForm';

interface SettingFieldProps {
  form: SettingsForm;
  settingKey: SettingKey;
  label: ReactNode;
  help?: ReactNode;
}

/** One setting as a labelled field (label above, help or error under); `children` draws the control from its aria props. */
export function SettingField({
  form,
  settingKey,
  label,
  help,
  error,
  className,
  children,
}: SettingFieldProps & {
  /** Shown when the setting itself has no error (e.g. the error of a companion setting in the same row). */
  error?: string;
  className?: string;
  children: (aria: ReturnType<typeof fieldAria>) => ReactNode;
}) {
  const f = fieldProps(form, settingKey, Boolean(help));
  return (
    <Field id={f.id} label={label} help={help} error={f.error ?? error} className={className}>
      {children(f.aria)}
    </Field>
  );
}

/** A text or number setting in an input; `suffix` sits after the input (a unit, a preview). */
export function SettingInput({
  form,
  settingKey,
  label,
  help,
  suffix,
  trim = false,
  className,
  ...input
}: SettingFieldProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'form' | 'value' | 'onChange'> & {
    suffix?: ReactNode;
    /** Drop spaces around the text as it is typed (URLs). */
    trim?: boolean;
  }) {
  return (
    <SettingField form={form} settingKey={settingKey} label={label} help={help}>
      {(aria) => {
        const control = (
          <Input
            {...input}
            {...aria}
            value={String(form.values[settingKey] ?? '')}
            onChange={(event) => form.set(settingKey, trim ? event.target.value.trim() : event.target.value)}
            className={cn(suffix !== undefined && 'min-w-0 flex-1', className)}
          />
        );
        return suffix === undefined ? (
          control
        ) : (
          <div className="flex items-center gap-2">
            {control}
            {suffix}
          </div>
        );
      }}
    </SettingField>
  );
}

/** A multi-line setting in a textarea. */
export function SettingTextarea({
  form,
  settingKey,
  label,
  help,
  ...textarea
}: SettingFieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'form' | 'value' | 'onChange'>) {
  return (
    <SettingField form={form} settingKey={settingKey} label={label} help={help}>
      {(aria) => (
        <Textarea
          {...textarea}
          {...aria}
          value={String(form.values[settingKey] ?? '')}
          onChange={(event) => form.set(settingKey, event.target.value)}
        />
      )}
    </SettingField>
  );
}
