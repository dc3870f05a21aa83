import type { PublicShareInfo, PublicShareListing } from '@clipnest/contract';
import { SHARE_PASSWORD_HEADER } from '@clipnest/contract/share-headers';
import { useQuery } from '@tanstack/react-query';
import { api, getApiBaseUrl } from '../../lib/api';

const sharePath = (slug: string) => `/shares/${encodeURIComponent(slug)}`;

/** GET /api/shares/{slug}; with the password, the answer carries an access token for the other routes. */
export function fetchShareInfo(slug: string, password?: string, signal?: AbortSignal): Promise<PublicShareInfo> {
  return api.get<PublicShareInfo>(sharePath(slug), {
    ...(signal ? { signal } : {}),
    auth: 'none',
    handleAuthErrors: false,
    ...(password ? { headers: { [SHARE_PASSWORD_HEADER]: password } } : {}),
  });
}

export function useShareInfo(slug: string) {
  return useQuery({
    queryKey: ['public-share', slug],
    queryFn: ({ signal }) => fetchShareInfo(slug, undefined, signal),
    enabled: slug !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** One page of a folder in the share (`path` relative to the shared folder). */
export function useShareListing(slug: string, path: string, token: string | undefined) {
  return useQuery({
    queryKey: ['public-share-list', slug, path, token],
    queryFn: ({ signal }) =>
      api.get<PublicShareListing>(`${sharePath(slug)}/list`, {
        query: { path, token, limit: 1000 },
        signal,
        auth: 'none',
        handleAuthErrors: false,
      }),
    enabled: slug !== '' && token !== undefined,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** The URL of a file (inline preview, or `download` as an attachment) or of a folder's zip. */
export function shareContentUrl(
  slug: string,
  route: 'file' | 'zip',
  path: string,
  token: string | undefined,
  download = false,
): string {
  const params = new URLSearchParams({ path });
  if (token) params.set('token', token);
  if (download) params.set('download', 'true');
  return `${getApiBaseUrl()}/api${sharePath(slug)}/${route}?${params.toString()}`;
}
