import type { FsEntryView } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { useTranslation } from '../../../lib/useTranslation';
import { fileLink } from '../api';

const BuiltinPreview = lazy(() =>
  import('../../../components/preview/builtin/BuiltinPreview').then((m) => ({ default: m.BuiltinPreview })),
);

/** A CSV/TSV file in the explorer as the sortable, virtualised table (from a short-lived link to it). */
function TableOf({ entry }: { entry: FsEntryView }) {
  const { t } = useTranslation();
  const link = useQuery({
    queryKey: ['fs', 'link', entry.path, entry.etag ?? entry.modified ?? ''],
    queryFn: () => fileLink(entry.path),
    staleTime: 30 * 60 * 1000,
  });
  if (link.isPending) return <Skeleton className="h-64 w-full" />;
  if (link.isError) return <Alert tone="danger">{t('fs.explorer.previewFailed')}</Alert>;
  return (
    <Suspense fallback={<Skeleton className="h-64 w-full" />}>
      <BuiltinPreview url={link.data.url} name={entry.name} />
    </Suspense>
  );
}

/**
 * CSV/TSV in the explorer's preview: the table first; `editor` (the text editor, when the file is small
 * enough to edit) behind the second switch.
 */
export function TablePreview({ entry, editor }: { entry: FsEntryView; editor: ReactNode }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'table' | 'text'>('table');
  if (!editor) return <TableOf entry={entry} />;
  const option = (value: 'table' | 'text', label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => setMode(value)}
      className={cn(
        'h-9 rounded-md px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring',
        mode === value ? 'bg-surface font-medium text-foreground shadow-sm' : 'text-muted-foreground',
      )}
    >
      {label}
    </button>
  );
  return (
    <div className="flex flex-col gap-3">
      <div
        role="group"
        aria-label={t('fs.explorer.viewAs')}
        className="flex w-fit gap-1 rounded-lg border border-border bg-surface-muted p-1"
      >
        {option('table', t('fs.explorer.viewTable'))}
        {option('text', t('fs.explorer.viewText'))}
      </div>
      {mode === 'table' ? <TableOf entry={entry} /> : editor}
    </div>
  );
}
