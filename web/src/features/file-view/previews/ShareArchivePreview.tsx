import type { ArchiveEntry, ArchiveListing } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { Download, FileText, Folder, TriangleAlert } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage, isApiError } from '../../../lib/api';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/useTranslation';
import { resolveFileUrl } from '../api';

/** Rows drawn (a listing holds up to ARCHIVE_LIMITS.maxListedEntries). */
const MAX_ROWS = 2000;

function entryUrl(slug: string, token: string, name: string, download: boolean): string {
  const query = new URLSearchParams({ token, entry: name, ...(download ? { download: '1' } : {}) });
  return resolveFileUrl(`/api/public/files/${encodeURIComponent(slug)}/archive/entry?${query.toString()}`);
}

function EntryRow({ slug, token, entry }: { slug: string; token: string; entry: ArchiveEntry }) {
  const { t, i18n } = useTranslation();
  const Icon = entry.directory ? Folder : FileText;
  // A zip-slip name is shown as stored and never turned into a link the browser could save under it.
  const usable = !entry.directory && !entry.encrypted;
  const base = entry.name.split('/').filter(Boolean).pop() ?? entry.name;
  return (
    <tr className="border-b border-border last:border-0" data-testid="archive-entry">
      <td className="max-w-0 py-1.5 pe-2">
        <div className="flex min-w-0 items-center gap-2">
          <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {usable && !entry.unsafe ? (
            <a
              href={entryUrl(slug, token, entry.name, false)}
              target="_blank"
              rel="noopener noreferrer"
              className="truncate font-mono text-xs text-primary hover:underline"
              title={t('preview.archive.openEntry', { name: entry.name })}
            >
              {entry.name}
            </a>
          ) : (
            <span className="truncate font-mono text-xs" title={entry.name}>
              {entry.name}
            </span>
          )}
          {entry.unsafe && (
            <span
              className="inline-flex shrink-0 items-center gap-1 rounded bg-warning-soft px-1.5 text-xs text-warning-soft-foreground"
              title={t('preview.archive.unsafeHelp')}
              data-testid="archive-unsafe"
            >
              <TriangleAlert className="size-3" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">{t('preview.archive.unsafe')}</span>
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
        {usable && (
          <a
            href={entryUrl(slug, token, entry.name, true)}
            download={base}
            aria-label={t('preview.archive.saveEntry', { name: entry.name })}
            title={t('preview.archive.saveEntry', { name: entry.name })}
            className="inline-flex size-8 items-center justify-center rounded-md text-muted-foreground hover:bg-surface-muted hover:text-foreground"
          >
            <Download className="size-4" aria-hidden="true" />
          </a>
        )}
      </td>
    </tr>
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
      <div className="max-h-[60dvh] overflow-auto rounded-lg border border-border bg-surface px-3">
        <table className="w-full table-fixed text-sm">
          <thead className="sticky top-0 bg-surface text-xs text-muted-foreground">
            <tr className="border-b border-border">
              <th className="py-1.5 text-start font-medium">{t('preview.archive.name')}</th>
              <th className="w-24 py-1.5 pe-2 text-end font-medium">{t('preview.archive.size')}</th>
              <th className="hidden w-44 py-1.5 text-start font-medium sm:table-cell">
                {t('preview.archive.modified')}
              </th>
              <th className="w-10">
                <span className="sr-only">{t('preview.archive.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <EntryRow key={item.name} slug={slug} token={token} entry={item} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-muted-foreground">{t('preview.archive.note')}</p>
    </div>
  );
}
