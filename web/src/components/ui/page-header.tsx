import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { IconButton } from './icon-button';

/** Admin page title row: heading and one-line description, actions on the end (stacked on phones). */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Action buttons, laid out in a row. */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-muted-foreground">{description}</p>}
      </div>
      {children && <div className="flex shrink-0 items-center gap-2">{children}</div>}
    </div>
  );
}

/** Secondary icon button that refetches; the icon spins while fetching. */
export function RefreshButton({
  label,
  fetching,
  onRefresh,
}: {
  label: string;
  fetching: boolean;
  onRefresh: () => void;
}) {
  return (
    <IconButton label={label} variant="secondary" onClick={onRefresh} disabled={fetching}>
      <RefreshCw className={fetching ? 'size-4 animate-spin' : 'size-4'} />
    </IconButton>
  );
}
