import type { ListPage, ShareView } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, ExternalLink, Files, FolderOpen, Lock, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { api, errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatDateTime, formatRelative, isPast } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';

const KEY = ['folder-shares'] as const;

function absolute(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${window.location.origin}${url}`;
}

/** The folder shares the caller manages (the admin: everyone's): link, limits, delete. */
export function FolderSharesSection() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [deleting, setDeleting] = useState<ShareView | null>(null);
  const shares = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get<ListPage<ShareView>>('/shares', { signal, query: { limit: 200 } }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/shares/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
  const copy = async (share: ShareView) => {
    if (await copyText(absolute(share.url))) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };

  return (
    <section className="flex flex-col gap-3" aria-labelledby="folder-shares-title" data-testid="folder-shares">
      <h2 id="folder-shares-title" className="text-lg font-semibold">
        {t('files.manage.folderShares')}
      </h2>
      {shares.isPending ? (
        <Skeleton className="h-16 w-full rounded-lg" />
      ) : shares.isError ? (
        <LoadError
          title={t('files.manage.loadFailed')}
          message={errorMessage(shares.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void shares.refetch()}
        />
      ) : shares.data.items.length === 0 ? (
        <EmptyState icon={FolderOpen} title={t('files.manage.noFolderShares')} />
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
          {shares.data.items.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              {s.type === 'bundle' ? (
                <Files className="size-5 shrink-0 text-primary" aria-hidden="true" />
              ) : (
                <FolderOpen className="size-5 shrink-0 text-primary" aria-hidden="true" />
              )}
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-1.5 font-medium">
                  <span className="truncate">{s.name}</span>
                  {s.has_password && (
                    <Lock
                      className="size-3.5 shrink-0 text-muted-foreground"
                      aria-label={t('files.upload.options.password')}
                    />
                  )}
                </p>
                <p className="truncate text-xs text-muted-foreground">
                  <span className="font-mono">{s.type === 'bundle' ? t('files.manage.bundle') : s.path}</span> ·{' '}
                  <span className="font-mono">{s.slug}</span> ·{' '}
                  {t('files.manage.downloads', {
                    count: s.downloads,
                    max: s.max_downloads > 0 ? ` / ${s.max_downloads}` : '',
                  })}{' '}
                  ·{' '}
                  {s.expires_at ? (
                    <span title={formatDateTime(s.expires_at, i18n.language)}>
                      {isPast(s.expires_at) ? t('files.manage.expired') : formatRelative(s.expires_at, i18n.language)}
                    </span>
                  ) : (
                    t('files.expiry.never')
                  )}
                </p>
              </div>
              <div className="flex gap-1">
                <Button variant="ghost" size="sm" asChild>
                  <a
                    href={s.url}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={t('files.manage.openShare', { name: s.name })}
                  >
                    <ExternalLink className="size-4" aria-hidden="true" />
                  </a>
                </Button>
                <Button variant="ghost" size="sm" onClick={() => void copy(s)} aria-label={t('common.copy')}>
                  <Copy className="size-4" aria-hidden="true" />
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setDeleting(s)} aria-label={t('common.delete')}>
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('files.manage.deleteFolderShare', { name: deleting?.name ?? '' })}
        description={t('files.manage.deleteFolderShareBody')}
        confirmLabel={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => setDeleting(null),
            onError: (error) => toast.error(errorMessage(error)),
          });
        }}
      />
    </section>
  );
}
