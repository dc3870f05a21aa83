import type { LucideIcon } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';

/**
 * The card at the top of a file page: icon, name, a line of details (joined by dots), badges, and the
 * actions on the right (below on phones). Used by plain and end-to-end encrypted shares alike.
 */
export function FileSummary({
  icon: Icon,
  name,
  details,
  badges,
  children,
}: {
  icon: LucideIcon;
  name: string;
  details: ReactNode[];
  badges: ReactNode;
  children: ReactNode;
}) {
  return (
    <header className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4 shadow-sm sm:flex-row sm:items-center sm:p-5">
      <div className="flex min-w-0 flex-1 items-start gap-4">
        <div className="grid size-12 shrink-0 place-items-center rounded-xl bg-primary-soft text-primary-soft-foreground">
          <Icon className="size-6" aria-hidden="true" />
        </div>
        <div className="min-w-0">
          <h1 className="break-all text-lg font-semibold leading-snug sm:text-xl" data-testid="file-name">
            {name}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            {details.map((detail, index) => (
              <Fragment key={index}>
                {index > 0 && <span aria-hidden="true">·</span>}
                {detail}
              </Fragment>
            ))}
          </p>
          <div className="mt-2 flex flex-wrap gap-1.5">{badges}</div>
        </div>
      </div>
      {children}
    </header>
  );
}
