import type {
  TwoFactorStatus,
  BlockedAddressView,
  ListPage,
  WebdavCheckInput,
  WebdavCheckResult,
  WebdavInfo,
  WebdavLockView,
} from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, getApiBaseUrl } from '../../lib/api';

export function useWebdavInfo() {
  return useQuery({
    queryKey: ['admin', 'webdav'],
    queryFn: ({ signal }) => api.get<WebdavInfo>('/admin/webdav', { signal }),
  });
}

/** Whether two-factor sign-in is on: WebDAV then refuses the admin password (the page says so). */
export function useTwoFactorOn() {
  return useQuery({
    queryKey: ['admin', '2fa'],
    queryFn: ({ signal }) => api.get<TwoFactorStatus>('/admin/2fa', { signal }),
    select: (status) => status.totp_enabled,
  });
}

export function useWebdavCheck() {
  return useMutation({
    mutationFn: (input: WebdavCheckInput) => api.post<WebdavCheckResult>('/admin/webdav/check', input),
  });
}

const LOCKS_KEY = ['admin', 'webdav', 'locks'] as const;

/** Locks held over WebDAV now (the admin breaks a forgotten one). */
export function useWebdavLocks() {
  return useQuery({
    queryKey: LOCKS_KEY,
    queryFn: ({ signal }) => api.get<ListPage<WebdavLockView>>('/admin/webdav/locks', { signal }),
    refetchInterval: 30_000,
  });
}

export function useBreakLock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/admin/webdav/locks/${encodeURIComponent(id)}`),
    onSettled: () => client.invalidateQueries({ queryKey: LOCKS_KEY }),
  });
}

const BLOCKED_KEY = ['admin', 'webdav', 'blocked'] as const;

/** Addresses refused for too many wrong secrets (10 in 15 minutes), at any door. */
export function useBlockedAddresses() {
  return useQuery({
    queryKey: BLOCKED_KEY,
    queryFn: ({ signal }) => api.get<ListPage<BlockedAddressView>>('/admin/webdav/blocked', { signal }),
    refetchInterval: 30_000,
  });
}

export function useUnblockAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/admin/webdav/blocked/${encodeURIComponent(id)}`),
    onSettled: () => client.invalidateQueries({ queryKey: BLOCKED_KEY }),
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
