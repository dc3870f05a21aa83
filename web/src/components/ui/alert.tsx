import { CircleAlert, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

const tones = {
  info: { box: 'bg-primary-soft text-primary-soft-foreground border-transparent', icon: Info },
  warning: { box: 'bg-warning-soft text-warning-soft-foreground border-warning-border', icon: TriangleAlert },
  danger: { box: 'bg-destructive-soft text-destructive-soft-foreground border-transparent', icon: CircleAlert },
} as const;

export function Alert({
  tone = 'info',
  title,
  children,
  className,
}: {
  tone?: keyof typeof tones;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const { box, icon: Icon } = tones[tone];
  return (
    <div
      role={tone === 'info' ? 'status' : 'alert'}
      className={cn('flex gap-3 rounded-lg border px-3.5 py-3 text-sm', box, className)}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={cn(title && 'mt-0.5 opacity-90')}>{children}</div>}
      </div>
    </div>
  );
}
