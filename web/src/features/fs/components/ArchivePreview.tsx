import type { ArchiveEntry, ArchiveListing, FsEntryView } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { Download, FileText, Folder, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconButton } from '../../../components/ui/icon-button';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage, isApiError } from '../../../lib/api';
import { downloadBlob } from '../../../lib/downloadBlob';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useTranslation } from '../../../lib/useTranslation';
import { fsFetch } from '../api';

/** Rows drawn at first; the rest on request (a listing holds up to ARCHIVE_LIMITS.maxListedEntries). */
const FIRST_ROWS = 500;
/** An entry is saved through memory (the request needs the session header): bigger ones are downloaded whole. */
const ENTRY_DOWNLOAD_MAX_BYTES = 200 * 1024 * 1024;

async function saveEntry(archive: string, entry: ArchiveEntry): Promise<void> {
  const response = await fsFetch('/fs/archive/entry', { path: archive, entry: entry.name, download: '1' });
  downloadBlob(await response.blob(), entry.name.split('/').filter(Boolean).pop() ?? 'entry');
}

function EntryRow({ archive, entry }: { archive: string; entry: ArchiveEntry }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const canSave = !entry.directory && !entry.encrypted && entry.size <= ENTRY_DOWNLOAD_MAX_BYTES;
  const save = async () => {
    setBusy(true);
    try {
      await saveEntry(archive, entry);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const Icon = entry.directory ? Folder : FileText;
  return (
    <tr className="border-b border-border last:border-0" data-testid="archive-entry">
      <td className="max-w-0 py-1.5 pe-2">
        <div className="flex min-w-0 items-center gap-2">
          <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="truncate font-mono text-xs" title={entry.name}>
            {entry.name}
          </span>
          {entry.unsafe && (
            <span
              className="inline-flex shrink-0 items-center gap-1 rounded bg-warning-soft px-1.5 text-xs text-warning-soft-foreground"
              title={t('fs.archive.unsafeHelp')}
            >
              <TriangleAlert className="size-3" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">{t('fs.archive.unsafe')}</span>
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
      <td className="w-10 py-1 text-end">
        {!entry.directory && (
          <IconButton
            size="icon-sm"
            label={t('fs.archive.saveEntry', { name: entry.name })}
            disabled={!canSave || busy}
            onClick={() => void save()}
          >
            <Download className="size-4" />
          </IconButton>
        )}
      </td>
    </tr>
  );
}

/** The entries of a .zip / .tar / .tar.gz, read on the server without unpacking; single entries can be saved. */
export function ArchivePreview({ entry }: { entry: FsEntryView }) {
  const { t, i18n } = useTranslation();
  const [all, setAll] = useState(false);
  const listing = useQuery({
    queryKey: ['fs', 'archive', entry.path, entry.etag ?? entry.modified ?? ''],
    queryFn: ({ signal }) =>
      api.get<ArchiveListing>('/fs/archive', { query: { path: entry.path }, signal, timeoutMs: 120_000 }),
    staleTime: 5 * 60 * 1000,
  });
  if (listing.isPending) return <Skeleton className="h-64 w-full" />;
  if (listing.isError) {
    // The server says what is wrong with the file (not a zip, cut short…): more use here than a generic text.
    const { error } = listing;
    return <Alert tone="warning">{(isApiError(error) && error.serverMessage) || errorMessage(error)}</Alert>;
  }
  const { entries, total_entries: total, truncated } = listing.data;
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{t('fs.archive.empty')}</p>;
  const shown = all ? entries : entries.slice(0, FIRST_ROWS);
  const count = new Intl.NumberFormat(i18n.language);
  return (
    <div className="space-y-2" data-testid="fs-archive-preview">
      <p className="text-sm text-muted-foreground" role="status">
        {truncated
          ? t('fs.archive.truncated', { shown: count.format(entries.length), total: count.format(total) })
          : t('fs.archive.count', { count: total, formatted: count.format(total) })}
      </p>
      <div className="max-h-[max(12rem,calc(88dvh-16rem))] overflow-auto rounded-lg border border-border px-3">
        <table className="w-full table-fixed text-sm">
          <thead className="sticky top-0 bg-surface text-xs text-muted-foreground">
            <tr className="border-b border-border">
              <th className="py-1.5 text-start font-medium">{t('fs.archive.name')}</th>
              <th className="w-24 py-1.5 pe-2 text-end font-medium">{t('fs.archive.size')}</th>
              <th className="hidden w-44 py-1.5 text-start font-medium sm:table-cell">{t('fs.archive.modified')}</th>
              <th className="w-10">
                <span className="sr-only">{t('fs.archive.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <EntryRow key={item.name} archive={entry.path} entry={item} />
            ))}
          </tbody>
        </table>
      </div>
      {!all && entries.length > FIRST_ROWS && (
        <Button variant="secondary" onClick={() => setAll(true)}>
          {t('fs.archive.showAll', { formatted: count.format(entries.length) })}
        </Button>
      )}
      <p className="text-xs text-muted-foreground">
        {t('fs.archive.limits', { size: formatBytes(ENTRY_DOWNLOAD_MAX_BYTES, i18n.language) })}
      </p>
    </div>
  );
}
