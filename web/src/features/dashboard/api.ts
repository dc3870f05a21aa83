import type { DashboardStats } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queueable } from '../../lib/offline/queueable';
import { api } from '../../lib/api';

export const DASHBOARD_QUERY_KEY = ['admin', 'dashboard'] as const;
export const CACHE_STATS_QUERY_KEY = ['admin', 'cache-stats'] as const;

export interface CacheStats {
  caches: { name: string; entries: number; path_scoped: boolean }[];
  total_entries: number;
}

export function useDashboardStats() {
  return useQuery({
    queryKey: DASHBOARD_QUERY_KEY,
    queryFn: ({ signal }) => api.get<DashboardStats>('/admin/dashboard/stats', { signal }),
    refetchInterval: 60_000,
  });
}

/** Reloads the dashboard bypassing the server's short cache. */
export function useRefreshDashboard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<DashboardStats>('/admin/dashboard/stats', { query: { fresh: 1 } }),
    onSuccess: (stats) => client.setQueryData(DASHBOARD_QUERY_KEY, stats),
  });
}

export function useCacheStats() {
  return useQuery({
    queryKey: CACHE_STATS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<CacheStats>('/admin/cache/stats', { signal }),
  });
}

export function useClearCache() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      queueable({ type: 'clearCache', endpoint: '/admin/cache/clear', method: 'POST', data: undefined }, () =>
        api.post<{ cleared: number }>('/admin/cache/clear'),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: CACHE_STATS_QUERY_KEY }),
  });
}
