import type { ArchiveEntry, ArchiveListing } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { ArchiveEntryName, ArchiveTable } from '../../../components/preview/archive/ArchiveTable';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage, isApiError } from '../../../lib/api';
import { useTranslation } from '../../../lib/useTranslation';
import { resolveFileUrl } from '../api';

/** Rows drawn (a listing holds up to ARCHIVE_LIMITS.maxListedEntries). */
const MAX_ROWS = 2000;

function entryUrl(slug: string, token: string, name: string, download: boolean): string {
  const query = new URLSearchParams({ token, entry: name, ...(download ? { download: '1' } : {}) });
  return resolveFileUrl(`/api/public/files/${encodeURIComponent(slug)}/archive/entry?${query.toString()}`);
}

/** A file entry opens in a new tab; a zip-slip name is shown as stored, never a link the browser could save under. */
function EntryName({ slug, token, entry }: { slug: string; token: string; entry: ArchiveEntry }) {
  const { t } = useTranslation();
  if (entry.directory || entry.encrypted || entry.unsafe) return <ArchiveEntryName entry={entry} />;
  return (
    <a
      href={entryUrl(slug, token, entry.name, false)}
      target="_blank"
      rel="noopener noreferrer"
      className="truncate font-mono text-xs text-primary hover:underline"
      title={t('preview.archive.openEntry', { name: entry.name })}
    >
      {entry.name}
    </a>
  );
}

function SaveEntryLink({ slug, token, entry }: { slug: string; token: string; entry: ArchiveEntry }) {
  const { t } = useTranslation();
  if (entry.directory || entry.encrypted) return null;
  return (
    <a
      href={entryUrl(slug, token, entry.name, true)}
      download={entry.name.split('/').filter(Boolean).pop() ?? entry.name}
      aria-label={t('preview.archive.saveEntry', { name: entry.name })}
      title={t('preview.archive.saveEntry', { name: entry.name })}
      className="inline-flex size-8 items-center justify-center rounded-md text-muted-foreground hover:bg-surface-muted hover:text-foreground"
    >
      <Download className="size-4" aria-hidden="true" />
    </a>
  );
}

/** A shared .zip / .tar / .tar.gz: its entries (read on the server, never unpacked), each one openable. */
export function ShareArchivePreview({ slug, token }: { slug: string; token: string }) {
  const { t, i18n } = useTranslation();
  const listing = useQuery({
    queryKey: ['share-archive', slug, token],
    queryFn: ({ signal }) =>
      api.get<ArchiveListing>(`/public/files/${encodeURIComponent(slug)}/archive`, {
        query: { token },
        signal,
        timeoutMs: 120_000,
      }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  if (listing.isPending) return <Skeleton className="h-64 w-full rounded-lg" />;
  if (listing.isError) {
    const { error } = listing;
    return <Alert tone="warning">{(isApiError(error) && error.serverMessage) || errorMessage(error)}</Alert>;
  }
  const { entries, total_entries: total, truncated } = listing.data;
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{t('preview.archive.empty')}</p>;
  const count = new Intl.NumberFormat(i18n.language);
  const shown = entries.slice(0, MAX_ROWS);
  return (
    <div className="space-y-2" data-testid="share-archive-preview">
      <p className="text-sm text-muted-foreground" role="status">
        {truncated || shown.length < entries.length
          ? t('preview.archive.truncated', { shown: count.format(shown.length), total: count.format(total) })
          : t('preview.archive.count', { count: total, formatted: count.format(total) })}
      </p>
      <ArchiveTable
        className="max-h-[60dvh] bg-surface"
        entries={shown}
        labels={{
          name: t('preview.archive.name'),
          size: t('preview.archive.size'),
          modified: t('preview.archive.modified'),
          actions: t('preview.archive.actions'),
          unsafe: t('preview.archive.unsafe'),
          unsafeHelp: t('preview.archive.unsafeHelp'),
        }}
        renderName={(item) => <EntryName slug={slug} token={token} entry={item} />}
        renderAction={(item) => <SaveEntryLink slug={slug} token={token} entry={item} />}
      />
      <p className="text-xs text-muted-foreground">{t('preview.archive.note')}</p>
    </div>
  );
}
