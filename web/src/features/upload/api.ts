import type { FileView, ListPage, MaxUploadSize, ShareView, StorageConfigView } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { api, apiUrl } from '../../lib/api';
import { authorizationHeader, getSession } from '../../lib/auth';
import i18n from '../../lib/i18n';
import { shareOptionEntries } from '../../lib/uploader/fields';
import type { ShareOptions } from '../../lib/uploader';

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

/**
 * POST /api/upload with every file and `bundle=true`: one share (`/s/{slug}`) listing them all. Through
 * XMLHttpRequest for the upload progress (fetch has none); `onProgress` gets the fraction sent.
 */
export function uploadBundle(
  files: File[],
  options: ShareOptions,
  onProgress: (fraction: number) => void,
): Promise<ShareView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/upload'));
    xhr.responseType = 'text';
    xhr.setRequestHeader('Accept', 'application/json');
    const header = authorizationHeader(getSession());
    if (header) xhr.setRequestHeader('Authorization', header);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let payload: { data?: unknown; message?: unknown } | undefined;
      try {
        payload = JSON.parse(xhr.responseText) as typeof payload;
      } catch {
        payload = undefined;
      }
      if (xhr.status === 201 && payload?.data) resolve(payload.data as ShareView);
      else reject(new Error(typeof payload?.message === 'string' ? payload.message : `HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error(i18n.t('errors.upload.network')));
    const form = new FormData();
    form.append('bundle', 'true');
    for (const [name, value] of shareOptionEntries(options)) form.append(name, value);
    for (const file of files) form.append('file', file, file.name);
    xhr.send(form);
  });
}
