import type {
  CreateStorageConfigInput,
  ListPage,
  StorageConfigTestResult,
  StorageConfigView,
  UpdateStorageConfigInput,
} from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const STORAGE_CONFIGS_QUERY_KEY = ['s3-configs'] as const;
export const SAVE_MUTATION_KEY = ['s3-configs', 'save'] as const;

const path = (id: string) => `/s3-configs/${encodeURIComponent(id)}`;

export function useStorageConfigs() {
  return useQuery({
    queryKey: [...STORAGE_CONFIGS_QUERY_KEY, 'list'],
    queryFn: ({ signal }) =>
      api.get<ListPage<StorageConfigView>>('/s3-configs', { signal, query: { page: 1, limit: 200 } }),
    select: (page) => (Array.isArray(page?.items) ? page.items : []),
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: STORAGE_CONFIGS_QUERY_KEY });
}

export function useCreateStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: SAVE_MUTATION_KEY,
    mutationFn: (input: CreateStorageConfigInput) => api.post<StorageConfigView>('/s3-configs', input),
    onSuccess: invalidate,
  });
}

export function useUpdateStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationKey: SAVE_MUTATION_KEY,
    mutationFn: ({ id, input }: { id: string; input: UpdateStorageConfigInput }) =>
      api.put<StorageConfigView>(path(id), input),
    onSuccess: invalidate,
  });
}

export function useDeleteStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete<void>(path(id)), onSuccess: invalidate });
}

export function useSetDefaultStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.put<StorageConfigView>(`${path(id)}/set-default`),
    onSuccess: invalidate,
  });
}

export function testStorageConfig(id: string): Promise<StorageConfigTestResult> {
  return api.post<StorageConfigTestResult>(`${path(id)}/test`, undefined, { timeoutMs: 60_000 });
}
