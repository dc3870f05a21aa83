import { RadioGroup } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A single-choice row of chips (a radio group with arrow-key navigation). */
export function ChoiceChips<T extends string>({
  value,
  onChange,
  options,
  label,
  className,
  id,
}: {
  value: T;
  onChange: (value: T) => void;
  options: { value: T; label: ReactNode }[];
  label: string;
  className?: string;
  id?: string;
}) {
  return (
    <RadioGroup.Root
      id={id}
      value={value}
      onValueChange={(next) => onChange(next as T)}
      aria-label={label}
      orientation="horizontal"
      loop
      className={cn('flex flex-wrap gap-2', className)}
    >
      {options.map((option) => (
        <RadioGroup.Item
          key={option.value}
          value={option.value}
          className={cn(
            'inline-flex h-9 items-center rounded-lg border px-3 text-sm font-medium transition-colors pointer-coarse:h-10',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
            'border-border bg-surface text-foreground hover:bg-surface-hover',
            'data-[state=checked]:border-primary data-[state=checked]:bg-primary-soft data-[state=checked]:text-primary-soft-foreground',
          )}
        >
          {option.label}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
