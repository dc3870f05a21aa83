import type { OfficePreviewResult, PublicFileDetails, PublicFileInfo } from '@clipnest/contract';
import { useQuery } from '@tanstack/react-query';
import { api, apiUrl, getApiBaseUrl, isApiError } from '../../lib/api';

export function publicFileKey(slug: string) {
  return ['public-file', slug] as const;
}

/**
 * GET /api/public/files/{slug}. Each successful answer counts a view, so it is fetched once per
 * page visit: no retries, no refetch on focus.
 */
export function usePublicFile(slug: string) {
  return useQuery({
    queryKey: publicFileKey(slug),
    queryFn: ({ signal }) =>
      api.get<PublicFileInfo>(`/public/files/${encodeURIComponent(slug)}`, {
        signal,
        auth: 'none',
        handleAuthErrors: false,
      }),
    enabled: slug !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function verifyFilePassword(slug: string, password: string): Promise<PublicFileDetails> {
  return api.post<PublicFileDetails>(
    `/public/files/${encodeURIComponent(slug)}/verify`,
    { password },
    { auth: 'none', handleAuthErrors: false },
  );
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

/** Spec §8 file view mapping: 401 unauthorized, 403 and 410 forbidden, 404 not found, else server error. */
export function fileErrorKind(error: unknown): FileErrorKind {
  if (!isApiError(error)) return 'server';
  if (error.status === 0) return 'network';
  if (error.status === 401) return 'unauthorized';
  if (error.status === 403) return 'forbidden';
  if (error.status === 410) return 'gone';
  if (error.status === 404) return 'notFound';
  return 'server';
}
