/** The fs API (spec §7 /api/fs/*) as query and mutation hooks. Paths are virtual (`/mount/dir/file`). */
import type { FileView, FsEntryView, FsFileLink, FsListing, FsRemoveResult, ShareView } from '@clipnest/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiUrl } from '../../lib/api';
import { authorizationHeader, getSession } from '../../lib/auth';
import { readThrough } from '../../lib/offline/readThrough';

export const FS_QUERY_KEY = ['fs'] as const;
/** Entries per list page: the first rows paint from the first page while the rest load on scroll. */
export const FS_PAGE_SIZE = 500;

/**
 * A raw fs answer (file bytes, not the JSON envelope) fetched with the session's credentials. An error status
 * throws with the server's message when it sent one.
 */
export async function fsFetch(path: string, query: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const header = authorizationHeader(getSession());
  const response = await fetch(`${apiUrl(path)}?${new URLSearchParams(query)}`, {
    signal,
    headers: header ? { Authorization: header } : {},
  });
  if (response.ok) return response;
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  throw new Error(typeof body?.message === 'string' && body.message ? body.message : `HTTP ${response.status}`);
}

export const fsListKey = (path: string) => [...FS_QUERY_KEY, 'list', path] as const;

export function useFsList(path: string) {
  const client = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: fsListKey(path),
    initialPageParam: { cursor: undefined as string | undefined, refresh: false },
    queryFn: ({ pageParam, signal }) =>
      // Folders the user opened stay readable offline (cleared at logout).
      readThrough('directories', `${path}\n${pageParam.cursor ?? ''}`, () =>
        api.get<FsListing>('/fs/list', {
          signal,
          query: { path, limit: FS_PAGE_SIZE, cursor: pageParam.cursor, refresh: pageParam.refresh || undefined },
        }),
      ),
    getNextPageParam: (last) => (last.cursor ? { cursor: last.cursor, refresh: false } : undefined),
    retry: false,
  });
  /** Reads the storage again, bypassing the mount's listing cache (refresh=true). */
  const refresh = async () => {
    client.removeQueries({ queryKey: fsListKey(path) });
    const first = await api.get<FsListing>('/fs/list', { query: { path, limit: FS_PAGE_SIZE, refresh: true } });
    client.setQueryData(fsListKey(path), {
      pages: [first],
      pageParams: [{ cursor: undefined, refresh: true }],
    });
  };
  return { ...query, refresh };
}

export function useInvalidateFs() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: FS_QUERY_KEY });
}

function useFsMutation<I, O>(fn: (input: I) => Promise<O>) {
  const invalidate = useInvalidateFs();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidate() });
}

export const useMkdir = () => useFsMutation((path: string) => api.post<FsEntryView>('/fs/mkdir', { path }));
export const useRename = () =>
  useFsMutation((input: { oldPath: string; newPath: string }) => api.post<FsEntryView>('/fs/rename', input));
export const useRemove = () =>
  useFsMutation((paths: string[]) => api.post<FsRemoveResult>('/fs/batch-remove', { paths }));
export const useUpdateText = () =>
  useFsMutation((input: { path: string; content: string }) => api.post<FsEntryView>('/fs/update', input));

export function fileLink(path: string, forceDownload = false): Promise<FsFileLink> {
  return api.get<FsFileLink>('/fs/file-link', { query: { path, force_download: forceDownload || undefined } });
}

export function createShare(
  path: string,
  options: { password?: string; expires_in?: number; max_views?: number } = {},
): Promise<FileView> {
  return api.post<FileView>('/fs/create-share', { path, ...options });
}

/** POST /api/shares: a link to browse a folder (password, expiry, max downloads). */
export function createFolderShare(
  path: string,
  options: { password?: string; expires_in?: number; max_downloads?: number } = {},
): Promise<ShareView> {
  return api.post<ShareView>('/shares', { path, ...options });
}

export function folderShareUrl(slug: string): string {
  return `${window.location.origin}/s/${encodeURIComponent(slug)}`;
}

export function shareUrl(slug: string): string {
  return `${window.location.origin}/file/${encodeURIComponent(slug)}`;
}
