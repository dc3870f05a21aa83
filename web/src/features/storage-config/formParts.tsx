import { Eye, EyeOff } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Field, fieldAria } from '../../components/ui/field';
import { IconButton } from '../../components/ui/icon-button';
import { Input } from '../../components/ui/input';
import { Switch } from '../../components/ui/switch';
import { useTranslation } from '../../lib/useTranslation';

/** A secret's input with a show/hide button inside it (write-only: the saved value is never filled in). */
export function SecretInput({
  shown,
  onToggle,
  ...input
}: { shown: boolean; onToggle: () => void } & Omit<ComponentProps<typeof Input>, 'type'>) {
  const { t } = useTranslation();
  return (
    <div className="relative">
      <Input
        {...input}
        type={shown ? 'text' : 'password'}
        autoComplete="new-password"
        spellCheck={false}
        className="pe-11"
      />
      <IconButton
        label={shown ? t('files.storage.hideSecret') : t('files.storage.showSecret')}
        size="icon-sm"
        className="absolute end-0.5 top-1/2 -translate-y-1/2"
        onClick={onToggle}
      >
        {shown ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
      </IconButton>
    </div>
  );
}

/** A yes/no option as a row: its name and what it does on the left, the switch on the right. */
export function SwitchRow({
  label,
  help,
  checked,
  onCheckedChange,
}: {
  label: string;
  help: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex min-h-10 cursor-pointer items-center justify-between gap-4 rounded-lg border border-border px-3 py-2">
      <span>
        <span className="block text-sm font-medium">{label}</span>
        <span className="block text-xs text-muted-foreground">{help}</span>
      </span>
      <Switch checked={checked} onCheckedChange={onCheckedChange} aria-label={label} />
    </label>
  );
}

/** A server's host and port side by side (the FTP and SFTP forms). */
export function HostPortFields({
  host,
  port,
  errors,
  placeholder,
  onHost,
  onPort,
}: {
  host: string;
  port: string;
  errors: { host?: string; port?: string };
  placeholder: string;
  onHost: (value: string) => void;
  onPort: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
      <Field
        id="sc-host"
        label={t('files.storage.fields.host')}
        error={errors.host}
        help={t('files.storage.fields.hostHelp')}
      >
        <Input
          {...fieldAria('sc-host', errors.host, true)}
          value={host}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          placeholder={placeholder}
          onChange={(e) => onHost(e.target.value)}
        />
      </Field>
      <Field id="sc-port" label={t('files.storage.fields.port')} error={errors.port}>
        <Input
          {...fieldAria('sc-port', errors.port, false)}
          value={port}
          inputMode="numeric"
          autoComplete="off"
          onChange={(e) => onPort(e.target.value)}
        />
      </Field>
    </div>
  );
}

/** A labelled secret field: write-only, so an edit shows "leave empty to keep" as its placeholder. */
export function SecretField({
  id,
  label,
  value,
  onChange,
  editing,
  shown,
  onToggle,
  error,
  help,
  optional,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  editing: boolean;
  shown: boolean;
  onToggle: () => void;
  error?: string;
  help?: string;
  optional?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={label} optional={optional} error={error} help={help}>
      <SecretInput
        {...fieldAria(id, error, help !== undefined)}
        shown={shown}
        onToggle={onToggle}
        value={value}
        placeholder={editing ? t('files.storage.fields.secretPlaceholder') : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
