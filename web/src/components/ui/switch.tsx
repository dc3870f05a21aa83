import { Switch as RadixSwitch } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { fieldAria, FieldMessage } from './field';

export function Switch({ className, ...props }: ComponentProps<typeof RadixSwitch.Root>) {
  return (
    <RadixSwitch.Root
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-transparent bg-input transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'data-[state=checked]:bg-primary disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    >
      <RadixSwitch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow-sm transition-transform data-[state=checked]:translate-x-[22px] rtl:data-[state=checked]:-translate-x-[22px]" />
    </RadixSwitch.Root>
  );
}

/** A labelled on/off choice: label and help (or error) on the start side, the switch on the end. */
export function SwitchField({
  id,
  label,
  help,
  error,
  checked,
  onCheckedChange,
  className,
}: {
  id: string;
  label: ReactNode;
  help?: ReactNode;
  error?: string | undefined;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  className?: string;
}) {
  return (
    <div className={cn('flex items-start justify-between gap-4', className)}>
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <FieldMessage id={id} help={help} error={error} className="mt-0.5" />
      </div>
      <Switch
        {...fieldAria(id, error, Boolean(help))}
        checked={checked}
        onCheckedChange={onCheckedChange}
        className="mt-0.5 pointer-coarse:my-2"
      />
    </div>
  );
}
