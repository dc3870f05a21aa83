import type { OfficePreviewResult, PublicFileDetails, PublicFileInfo } from '@clipnest/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiUrl, getApiBaseUrl, isApiError } from '../../lib/api';
import { readThrough } from '../../lib/offline/readThrough';

const publicFilePath = (slug: string) => `/public/files/${encodeURIComponent(slug)}`;

export function publicFileKey(slug: string) {
  return ['public-file', slug] as const;
}

/**
 * GET /api/public/files/{slug}. Each successful answer counts a view, so it is fetched once per
 * page visit: no retries, no refetch on focus (main.tsx may start it before the page's code is in,
 * app/firstRead.ts).
 */
export function publicFileQuery(slug: string) {
  return queryOptions({
    queryKey: publicFileKey(slug),
    queryFn: ({ signal }) =>
      readThrough(
        'files',
        slug,
        // Sent with the session (admin token or API key): the owner's look is not counted.
        () => api.get<PublicFileInfo>(publicFilePath(slug), { signal, handleAuthErrors: false }),
        (file) => !file.requires_password,
      ),
    enabled: slug !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function usePublicFile(slug: string) {
  return useQuery(publicFileQuery(slug));
}

export function verifyFilePassword(slug: string, password: string): Promise<PublicFileDetails> {
  return api.post<PublicFileDetails>(`${publicFilePath(slug)}/verify`, { password }, { handleAuthErrors: false });
}

export function officePreview(slug: string, token: string, signal?: AbortSignal): Promise<OfficePreviewResult> {
  return api.get<OfficePreviewResult>(`/office-preview/${encodeURIComponent(slug)}`, {
    query: { token },
    signal,
    auth: 'none',
    handleAuthErrors: false,
  });
}

/** Server URLs come as /api/…; make them absolute against the API base. */
export function resolveFileUrl(url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith('/api/')) return `${getApiBaseUrl()}${url}`;
  return apiUrl(url);
}

export type FileErrorKind = 'unauthorized' | 'forbidden' | 'gone' | 'notFound' | 'network' | 'server' | 'missingId';

/**
 * Spec §8 file view mapping, decided on the error envelope's kind: the 401 kinds unauthorized, the 403
 * and 410 kinds forbidden (shown as gone), not_found not found, no answer a network error, else server error.
 */
export function fileErrorKind(error: unknown): FileErrorKind {
  if (!isApiError(error)) return 'server';
  if (error.transport) return 'network';
  switch (error.kind) {
    case 'unauthorized':
    case 'password_required':
    case 'password_wrong':
      return 'unauthorized';
    case 'forbidden':
      return 'forbidden';
    case 'expired':
    case 'gone':
      return 'gone';
    case 'not_found':
      return 'notFound';
    default:
      return 'server';
  }
}
