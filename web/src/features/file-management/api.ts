import type {
  BatchDeleteFilesResult,
  DeleteMode,
  FileSortField,
  FileView,
  ListPage,
  UpdateFileInput,
} from '@clipnest/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const FILES_QUERY_KEY = ['files'] as const;
export const UPDATE_FILE_KEY = ['files', 'update'] as const;

export interface FileListParams {
  limit: number;
  offset: number;
  search: string;
  sort: FileSortField;
  order: 'asc' | 'desc';
}

export function useFiles(params: FileListParams) {
  return useQuery({
    queryKey: [...FILES_QUERY_KEY, 'list', params],
    queryFn: ({ signal }) =>
      api.get<ListPage<FileView>>('/files', {
        signal,
        query: { ...params, search: params.search || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useUpdateFile() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: UPDATE_FILE_KEY,
    mutationFn: ({ id, input }: { id: string; input: UpdateFileInput }) =>
      api.put<FileView>(`/files/${encodeURIComponent(id)}`, input),
    onSuccess: () => client.invalidateQueries({ queryKey: FILES_QUERY_KEY }),
  });
}

export function useDeleteFiles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, mode }: { ids: string[]; mode: DeleteMode }) =>
      api.delete<BatchDeleteFilesResult>('/files/batch-delete', { ids, delete_mode: mode }),
    onSuccess: () => client.invalidateQueries({ queryKey: FILES_QUERY_KEY }),
  });
}

export function shareLink(slug: string): string {
  return `${window.location.origin}/file/${encodeURIComponent(slug)}`;
}
