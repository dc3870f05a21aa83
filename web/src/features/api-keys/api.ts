import type { ApiKeyView, CreateApiKeyInput, UpdateApiKeyInput } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const API_KEYS_QUERY_KEY = ['admin', 'api-keys'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: API_KEYS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<ApiKeyView[]>('/admin/api-keys', { signal }),
    select: (keys) => (Array.isArray(keys) ? keys : []),
  });
}

function useReplaceInCache() {
  const client = useQueryClient();
  return (updater: (keys: ApiKeyView[]) => ApiKeyView[]) =>
    client.setQueryData<ApiKeyView[]>(API_KEYS_QUERY_KEY, (old) => updater(Array.isArray(old) ? old : []));
}

export function useCreateApiKey() {
  const replace = useReplaceInCache();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => api.post<ApiKeyView>('/admin/api-keys', input),
    onSuccess: (created) => replace((keys) => [created, ...keys.filter((k) => k.id !== created.id)]),
  });
}

export function useUpdateApiKey() {
  const replace = useReplaceInCache();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateApiKeyInput }) =>
      api.put<ApiKeyView>(`/admin/api-keys/${encodeURIComponent(id)}`, input),
    onSuccess: (updated) => replace((keys) => keys.map((k) => (k.id === updated.id ? updated : k))),
  });
}

export function useDeleteApiKey() {
  const replace = useReplaceInCache();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/admin/api-keys/${encodeURIComponent(id)}`),
    onSuccess: (_, id) => replace((keys) => keys.filter((k) => k.id !== id)),
  });
}
