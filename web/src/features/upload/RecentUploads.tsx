import type { FileView } from '@clipnest/contract';
import { Clock, Copy, FileUp } from 'lucide-react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { toast } from '../../lib/toast';
import { IconButton } from '../../components/ui/icon-button';
import { Skeleton } from '../../components/ui/skeleton';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatRelative } from '../../lib/format';
import { shareLink } from './api';

/** The 3 most recent uploads (spec §2 Upload, §9). */
export function RecentUploads({ files, loading }: { files: FileView[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const copy = async (slug: string) => {
    if (await copyText(shareLink(slug))) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };
  return (
    <section aria-labelledby="recent-uploads" className="rounded-xl border border-border bg-surface p-4 shadow-sm">
      <h2 id="recent-uploads" className="flex items-center gap-2 text-sm font-semibold">
        <Clock className="size-4 text-muted-foreground" aria-hidden="true" />
        {t('files.upload.recent.title')}
      </h2>
      {loading ? (
        <ul className="mt-3 flex flex-col gap-3">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="space-y-1.5">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-24" />
            </li>
          ))}
        </ul>
      ) : files.length === 0 ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-muted-foreground">
          <FileUp className="size-4" aria-hidden="true" />
          {t('files.upload.recent.empty')}
        </p>
      ) : (
        <ul className="mt-2 flex flex-col divide-y divide-border" data-testid="recent-uploads">
          {files.map((file) => (
            <li key={file.id} className="flex items-center gap-2 py-2">
              <div className="min-w-0 flex-1">
                <Link
                  to={`/file/${encodeURIComponent(file.slug)}`}
                  className="block truncate rounded-sm text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  title={file.filename}
                >
                  {file.filename}
                </Link>
                <p className="truncate text-xs text-muted-foreground">
                  {formatBytes(file.size, i18n.language)} · {formatRelative(file.created_at, i18n.language)}
                </p>
              </div>
              {/* An encrypted share's key was only in the link shown after upload: no copy here. */}
              {!file.encryption && (
                <IconButton
                  label={t('files.upload.copyLink', { name: file.filename })}
                  size="icon-sm"
                  onClick={() => void copy(file.slug)}
                >
                  <Copy className="size-4" />
                </IconButton>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
