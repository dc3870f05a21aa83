import { Label } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** Label above, help under, inline error under that (DESIGN.md forms). Pass ids to wire aria. */
export function Field({
  id,
  label,
  help,
  error,
  children,
  className,
  optional,
}: {
  id: string;
  label: ReactNode;
  help?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
  className?: string;
  optional?: string;
}) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label.Root htmlFor={id} className="text-sm font-medium text-foreground">
        {label}
        {optional && <span className="ms-1.5 font-normal text-muted-foreground">({optional})</span>}
      </Label.Root>
      {children}
      <FieldMessage id={id} help={help} error={error} />
    </div>
  );
}

/** The line under a control: its error when there is one (announced), else its help text. */
export function FieldMessage({
  id,
  help,
  error,
  className,
}: {
  /** The control's id: the texts get `${id}-help` / `${id}-error` for aria-describedby. */
  id?: string;
  help?: ReactNode;
  error?: string | undefined;
  className?: string;
}) {
  if (error) {
    return (
      <p
        id={id && `${id}-error`}
        role="alert"
        className={cn('text-xs font-medium leading-snug text-destructive-soft-foreground', className)}
      >
        {error}
      </p>
    );
  }
  if (!help) return null;
  return (
    <p id={id && `${id}-help`} className={cn('text-xs leading-snug text-muted-foreground', className)}>
      {help}
    </p>
  );
}

/** aria props for the control inside a Field. */
export function fieldAria(id: string, error: string | undefined, hasHelp: boolean) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hasHelp ? `${id}-help` : undefined,
  } as const;
}
