import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A card of related settings: heading, one-line description, the fields stacked under it. */
export function SettingsSection({
  title,
  description,
  icon: Icon,
  children,
  className,
  ...rest
}: Omit<ComponentProps<'section'>, 'title'> & {
  title: ReactNode;
  description?: ReactNode;
  icon?: LucideIcon;
  children: ReactNode;
}) {
  return (
    <section className={cn('rounded-xl border border-border bg-surface p-4 shadow-sm sm:p-6', className)} {...rest}>
      <h2 className="flex items-center gap-2 text-base font-semibold">
        {Icon && <Icon className="size-4 text-muted-foreground" aria-hidden="true" />}
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      <div className="mt-5 flex flex-col gap-5">{children}</div>
    </section>
  );
}
