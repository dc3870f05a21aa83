import type { WebdavCheckInput, WebdavCheckResult, WebdavInfo } from '@clipnest/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, getApiBaseUrl } from '../../lib/api';

export function useWebdavInfo() {
  return useQuery({
    queryKey: ['admin', 'webdav'],
    queryFn: ({ signal }) => api.get<WebdavInfo>('/admin/webdav', { signal }),
  });
}

export function useWebdavCheck() {
  return useMutation({
    mutationFn: (input: WebdavCheckInput) => api.post<WebdavCheckResult>('/admin/webdav/check', input),
  });
}

/** The server's origin as clients reach it: the configured public URL, else the API's own origin. */
export function serverOrigin(publicUrl: string | null | undefined): URL {
  try {
    return new URL(publicUrl || getApiBaseUrl() || window.location.origin);
  } catch {
    return new URL(window.location.origin);
  }
}
