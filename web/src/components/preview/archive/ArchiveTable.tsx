import type { ArchiveEntry } from '@clipnest/contract';
import { FileText, Folder, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/useTranslation';

/** The texts of the table: the explorer and the share page read them from their own text areas. */
export interface ArchiveTableLabels {
  name: string;
  size: string;
  modified: string;
  actions: string;
  unsafe: string;
  unsafeHelp: string;
}

/**
 * An archive's entries as a table: name (with a warning on zip-slip names), size, date and one action cell. How a
 * name is shown (text or a link) and what the action is belong to the caller.
 */
export function ArchiveTable({
  entries,
  labels,
  renderName,
  renderAction,
  className,
}: {
  entries: ArchiveEntry[];
  labels: ArchiveTableLabels;
  renderName: (entry: ArchiveEntry) => ReactNode;
  renderAction: (entry: ArchiveEntry) => ReactNode;
  className: string;
}) {
  const { i18n } = useTranslation();
  return (
    <div className={`overflow-auto rounded-lg border border-border px-3 ${className}`}>
      <table className="w-full table-fixed text-sm">
        <thead className="sticky top-0 bg-surface text-xs text-muted-foreground">
          <tr className="border-b border-border">
            <th className="py-1.5 text-start font-medium">{labels.name}</th>
            <th className="w-24 py-1.5 pe-2 text-end font-medium">{labels.size}</th>
            <th className="hidden w-44 py-1.5 text-start font-medium sm:table-cell">{labels.modified}</th>
            <th className="w-10">
              <span className="sr-only">{labels.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const Icon = entry.directory ? Folder : FileText;
            return (
              <tr key={entry.name} className="border-b border-border last:border-0" data-testid="archive-entry">
                <td className="max-w-0 py-1.5 pe-2">
                  <div className="flex min-w-0 items-center gap-2">
                    <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    {renderName(entry)}
                    {entry.unsafe && (
                      <span
                        className="inline-flex shrink-0 items-center gap-1 rounded bg-warning-soft px-1.5 text-xs text-warning-soft-foreground"
                        title={labels.unsafeHelp}
                        data-testid="archive-unsafe"
                      >
                        <TriangleAlert className="size-3" aria-hidden="true" />
                        <span className="sr-only sm:not-sr-only">{labels.unsafe}</span>
                      </span>
                    )}
                  </div>
                </td>
                <td className="whitespace-nowrap py-1.5 pe-2 text-end text-xs tabular-nums text-muted-foreground">
                  {entry.directory ? '' : formatBytes(entry.size, i18n.language)}
                </td>
                <td className="hidden whitespace-nowrap py-1.5 pe-2 text-xs text-muted-foreground sm:table-cell">
                  {entry.modified ? formatDateTime(entry.modified, i18n.language) : ''}
                </td>
                <td className="w-10 py-1 text-end">{renderAction(entry)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** An entry's name as plain text (directories, encrypted or unsafe names, or where no link is wanted). */
export function ArchiveEntryName({ entry }: { entry: ArchiveEntry }) {
  return (
    <span className="truncate font-mono text-xs" title={entry.name}>
      {entry.name}
    </span>
  );
}
