import type { CreateMount, MountList, MountView, UpdateMount } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Mounts (spec §7 /api/mount/*): list for everyone with a mount permission, writes for the admin. */
export const MOUNTS_QUERY_KEY = ['mounts'] as const;

const mountPath = (id: string) => `/mount/${encodeURIComponent(id)}`;

export function useMounts() {
  return useQuery({
    queryKey: [...MOUNTS_QUERY_KEY, 'list'],
    queryFn: ({ signal }) => api.get<MountList>('/mount/list', { signal }),
    select: (list) => (Array.isArray(list?.items) ? list.items : []),
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: MOUNTS_QUERY_KEY });
}

export function useSaveMount() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: CreateMount | UpdateMount }) =>
      id ? api.put<MountView>(mountPath(id), input) : api.post<MountView>('/mount/create', input),
    onSuccess: invalidate,
  });
}

export function useDeleteMount() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete<void>(mountPath(id)), onSuccess: invalidate });
}
