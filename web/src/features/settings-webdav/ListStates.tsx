import type { UseQueryResult } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage } from '../../lib/api';
import { useTranslation } from '../../lib/useTranslation';

/** A list's loading, failed and empty states; `children` draws the items once there are some. */
export function ListStates<T>({
  query,
  loadFailed,
  empty,
  children,
}: {
  query: UseQueryResult<{ items: T[] }>;
  loadFailed: string;
  empty: { icon: LucideIcon; title: string; body: string };
  children: (items: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Skeleton className="h-24 w-full rounded-xl" />;
  if (query.isError) {
    return (
      <LoadError
        title={loadFailed}
        message={errorMessage(query.error)}
        retryLabel={t('common.retry')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.items.length === 0) {
    return <EmptyState icon={empty.icon} title={empty.title} description={empty.body} className="py-8" />;
  }
  return children(query.data.items);
}
