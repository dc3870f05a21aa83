import type { FileView, ListPage, MaxUploadSize, StorageConfigView } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Spec §9: 100 MB when the call fails. */
export const FALLBACK_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
export const RECENT_UPLOADS = 3;
export const RECENT_UPLOADS_QUERY_KEY = ['files', 'recent'] as const;

export function useMaxUploadSize() {
  return useQuery({
    queryKey: ['system', 'max-upload-size'],
    queryFn: async ({ signal }) => {
      try {
        const data = await api.get<MaxUploadSize>('/system/max-upload-size', { signal, auth: 'none' });
        return typeof data?.max_upload_size === 'number' && data.max_upload_size > 0
          ? data.max_upload_size
          : FALLBACK_MAX_UPLOAD_BYTES;
      } catch {
        return FALLBACK_MAX_UPLOAD_BYTES;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/** Storage configs for the target select (admins; FILE_SHARE keys get them without connection details). */
export function useStorageTargets(enabled: boolean) {
  return useQuery({
    queryKey: ['s3-configs', 'upload-targets'],
    queryFn: ({ signal }) =>
      api.get<ListPage<StorageConfigView>>('/s3-configs', { signal, query: { page: 1, limit: 200 } }),
    select: (page) => (Array.isArray(page?.items) ? page.items : []),
    enabled,
    retry: false,
  });
}

export function useRecentUploads(enabled: boolean) {
  return useQuery({
    queryKey: RECENT_UPLOADS_QUERY_KEY,
    queryFn: ({ signal }) =>
      api.get<ListPage<FileView>>('/files', {
        signal,
        query: { limit: RECENT_UPLOADS, offset: 0, sort: 'created_at', order: 'desc' },
      }),
    select: (page) => (Array.isArray(page?.items) ? page.items.slice(0, RECENT_UPLOADS) : []),
    enabled,
  });
}

/** The public link of a share page. */
export function shareLink(slug: string): string {
  return `${window.location.origin}/file/${encodeURIComponent(slug)}`;
}
