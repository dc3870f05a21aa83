import type { ArchiveEntry, ArchiveListing, FsEntryView } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { ArchiveEntryName, ArchiveTable } from '../../../components/preview/archive/ArchiveTable';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconButton } from '../../../components/ui/icon-button';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage, isApiError } from '../../../lib/api';
import { downloadBlob } from '../../../lib/downloadBlob';
import { formatBytes } from '../../../lib/format';
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

/** Saves one entry (the request needs the session header, so it goes through memory: see the size limit). */
function SaveEntryButton({ archive, entry }: { archive: string; entry: ArchiveEntry }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (entry.directory) return null;
  const canSave = !entry.encrypted && entry.size <= ENTRY_DOWNLOAD_MAX_BYTES;
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
  return (
    <IconButton
      size="icon-sm"
      label={t('fs.archive.saveEntry', { name: entry.name })}
      disabled={!canSave || busy}
      onClick={() => void save()}
    >
      <Download className="size-4" />
    </IconButton>
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
      <ArchiveTable
        className="max-h-[max(12rem,calc(88dvh-16rem))]"
        entries={shown}
        labels={{
          name: t('fs.archive.name'),
          size: t('fs.archive.size'),
          modified: t('fs.archive.modified'),
          actions: t('fs.archive.actions'),
          unsafe: t('fs.archive.unsafe'),
          unsafeHelp: t('fs.archive.unsafeHelp'),
        }}
        renderName={(item) => <ArchiveEntryName entry={item} />}
        renderAction={(item) => <SaveEntryButton archive={entry.path} entry={item} />}
      />
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
