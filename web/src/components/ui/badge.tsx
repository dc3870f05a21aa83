import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

const tones = {
  neutral: 'bg-surface-muted text-muted-foreground border-border',
  primary: 'bg-primary-soft text-primary-soft-foreground border-transparent',
  success: 'bg-success-soft text-success-soft-foreground border-transparent',
  warning: 'bg-warning-soft text-warning-soft-foreground border-transparent',
  danger: 'bg-destructive-soft text-destructive-soft-foreground border-transparent',
} as const;

export function Badge({
  tone = 'neutral',
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { tone?: keyof typeof tones }) {
  return (
    <span
      className={cn(
        'inline-flex h-6 items-center gap-1 whitespace-nowrap rounded-md border px-2 text-xs font-medium [&_svg]:size-3.5',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
