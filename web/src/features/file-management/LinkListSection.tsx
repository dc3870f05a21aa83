import type { ListPage } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, ExternalLink, Lock, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { api, errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';

export function absoluteUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${window.location.origin}${url}`;
}

/** A link the caller manages: folder shares, upload requests. */
interface LinkItem {
  id: string;
  url: string;
  has_password: boolean;
}

/** How one link shows in the list. */
export interface LinkRow {
  icon: LucideIcon;
  name: string;
  /** After the name and its lock (a state badge). */
  badge?: ReactNode;
  details: ReactNode;
  /** The name the open button's label gives. */
  openName: string;
}

/**
 * A section listing the links the caller manages (the admin: everyone's) from `GET {path}`: open, copy, and
 * one way to end a link (`DELETE {path}/:id`) after a confirmation.
 */
export function LinkListSection<T extends LinkItem>(props: {
  /** The section's test id and the root of its title's id. */
  id: string;
  title: string;
  /** Beside the title (a create button). */
  action?: ReactNode;
  queryKey: readonly string[];
  path: string;
  emptyIcon: LucideIcon;
  emptyTitle: string;
  row: (item: T) => LinkRow;
  end: {
    icon: LucideIcon;
    label: string;
    /** Whether the link can still be ended (undefined: always). */
    allowed?: (item: T) => boolean;
    confirm: (item: T | null) => { title: string; description: string; confirmLabel: string };
  };
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [ending, setEnding] = useState<T | null>(null);
  const links = useQuery({
    queryKey: props.queryKey,
    queryFn: ({ signal }) => api.get<ListPage<T>>(props.path, { signal, query: { limit: 200 } }),
  });
  const end = useMutation({
    mutationFn: (id: string) => api.delete(`${props.path}/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: props.queryKey }),
  });
  const copy = async (item: T) => {
    if (await copyText(absoluteUrl(item.url))) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };
  const titleId = `${props.id}-title`;
  const heading = (
    <h2 id={titleId} className="text-lg font-semibold">
      {props.title}
    </h2>
  );
  const EndIcon = props.end.icon;
  const confirm = props.end.confirm(ending);

  return (
    <section className="flex flex-col gap-3" aria-labelledby={titleId} data-testid={props.id}>
      {props.action ? (
        <div className="flex items-center justify-between gap-2">
          {heading}
          {props.action}
        </div>
      ) : (
        heading
      )}
      {links.isPending ? (
        <Skeleton className="h-16 w-full rounded-lg" />
      ) : links.isError ? (
        <LoadError
          title={t('files.manage.loadFailed')}
          message={errorMessage(links.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void links.refetch()}
        />
      ) : links.data.items.length === 0 ? (
        <EmptyState icon={props.emptyIcon} title={props.emptyTitle} />
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
          {links.data.items.map((item) => {
            const row = props.row(item);
            const Icon = row.icon;
            return (
              <li key={item.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-1.5 font-medium">
                    <span className="truncate">{row.name}</span>
                    {item.has_password && (
                      <Lock
                        className="size-3.5 shrink-0 text-muted-foreground"
                        aria-label={t('files.upload.options.password')}
                      />
                    )}
                    {row.badge}
                  </p>
                  <p className="truncate text-xs text-muted-foreground">{row.details}</p>
                </div>
                <div className="flex gap-1">
                  <Button variant="ghost" size="sm" asChild>
                    <a
                      href={item.url}
                      target="_blank"
                      rel="noreferrer"
                      aria-label={t('files.manage.openShare', { name: row.openName })}
                    >
                      <ExternalLink className="size-4" aria-hidden="true" />
                    </a>
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => void copy(item)} aria-label={t('common.copy')}>
                    <Copy className="size-4" aria-hidden="true" />
                  </Button>
                  {(props.end.allowed?.(item) ?? true) && (
                    <Button variant="ghost" size="sm" onClick={() => setEnding(item)} aria-label={props.end.label}>
                      <EndIcon className="size-4" aria-hidden="true" />
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={confirm.title}
        description={confirm.description}
        confirmLabel={confirm.confirmLabel}
        busy={end.isPending}
        onConfirm={() => {
          if (!ending) return;
          end.mutate(ending.id, {
            onSuccess: () => setEnding(null),
            onError: (error) => toast.error(errorMessage(error)),
          });
        }}
      />
    </section>
  );
}
