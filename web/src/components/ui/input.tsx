import type { InputHTMLAttributes, Ref, TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export const fieldControlClasses = cn(
  'w-full rounded-lg border border-input bg-surface text-foreground text-sm placeholder:text-muted-foreground/80',
  'transition-colors focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring focus-visible:border-ring',
  'disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-destructive',
  'aria-[invalid=true]:focus-visible:outline-destructive',
);

export function Input({
  className,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input ref={ref} className={cn(fieldControlClasses, 'h-10 px-3', className)} {...props} />;
}

export function Textarea({
  className,
  ref,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return <textarea ref={ref} className={cn(fieldControlClasses, 'min-h-24 px-3 py-2', className)} {...props} />;
}
