/** Paste calls (spec §7 Pastes), shared by Home, the paste view and text management. */
import type {
  BatchDeletePastesInput,
  CreatePasteInput,
  PasteCreated,
  PasteDetail,
  PasteListResponse,
  PastesDeleted,
  PasteSortField,
  PasteView,
  PasteViewResult,
  UpdatePasteInput,
} from '@clipnest/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiUrl } from '../../lib/api';
import { queueable } from '../../lib/offline/queueable';
import { readThrough } from '../../lib/offline/readThrough';

export const PASTES_QUERY_KEY = ['admin', 'pastes'] as const;

const enc = encodeURIComponent;

/** Creates a paste; without a network it is queued (throws QueuedOffline) and shared when the network returns. */
export function createPaste(input: CreatePasteInput): Promise<PasteCreated> {
  return queueable({ type: 'createPaste', endpoint: '/paste', method: 'POST', data: input }, () =>
    api.post<PasteCreated>('/paste', input),
  );
}

/** The paste; a copy of one opened before answers when the network is gone (offline reading). */
export function fetchPaste(slug: string, signal?: AbortSignal): Promise<PasteViewResult> {
  const path = `/paste/${enc(slug)}`;
  return readThrough(
    'pastes',
    slug,
    () => api.get<PasteViewResult>(path, { signal }),
    (paste) => !paste.requires_password,
  );
}

/**
 * The shared paste as its page reads it. Each successful read counts a view: fetched once per visit, never in
 * the background (main.tsx may start it before the page's code is in, app/firstRead.ts).
 */
export function pasteViewQuery(slug: string) {
  return queryOptions({
    queryKey: ['paste-view', slug],
    queryFn: ({ signal }) => fetchPaste(slug, signal),
    retry: false,
    staleTime: Infinity,
    // Long enough to survive React's dev double-mount (which would otherwise count a second view).
    gcTime: 1_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });
}

/** A protected paste the user unlocked is kept in this browser's offline database only. */
export function unlockPaste(slug: string, password: string): Promise<PasteView> {
  return readThrough('pastes', slug, () => api.post<PasteView>(`/paste/${enc(slug)}`, { password }));
}

/** Absolute link to the raw text; the password (if any) travels as a query parameter (spec §7). */
export function rawPasteUrl(slug: string, password?: string): string {
  const base = apiUrl(`/raw/${enc(slug)}`);
  return password ? `${base}?password=${enc(password)}` : base;
}

/** The public link of a paste on this site. */
export function pasteShareUrl(slug: string): string {
  return `${window.location.origin}/paste/${enc(slug)}`;
}

export interface PasteListQuery {
  page: number;
  limit: number;
  search: string;
  sort: PasteSortField;
  order: 'asc' | 'desc';
}

export function usePasteList(query: PasteListQuery) {
  return useQuery({
    queryKey: [...PASTES_QUERY_KEY, query],
    queryFn: ({ signal }) =>
      api.get<PasteListResponse>('/pastes', {
        signal,
        query: {
          page: query.page,
          limit: query.limit,
          search: query.search || undefined,
          sort: query.sort,
          order: query.order,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export function fetchPasteDetail(id: string, signal?: AbortSignal): Promise<PasteDetail> {
  return api.get<PasteDetail>(`/pastes/${enc(id)}`, { signal });
}

export function usePasteDetail(id: string | null) {
  return useQuery({
    queryKey: [...PASTES_QUERY_KEY, 'detail', id],
    queryFn: ({ signal }) => fetchPasteDetail(id!, signal),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

export function updatePaste(id: string, input: UpdatePasteInput): Promise<PasteDetail> {
  const endpoint = `/pastes/${enc(id)}`;
  return queueable({ type: 'updatePaste', endpoint, method: 'PUT', data: input }, () =>
    api.put<PasteDetail>(endpoint, input),
  );
}

function useInvalidatePastes() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: PASTES_QUERY_KEY });
}

export function useUpdatePaste() {
  const invalidate = useInvalidatePastes();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdatePasteInput }) => updatePaste(id, input),
    onSuccess: () => void invalidate(),
  });
}

export function useDeletePastes() {
  const invalidate = useInvalidatePastes();
  return useMutation({
    mutationFn: (ids: string[]) => {
      const body = { ids } satisfies BatchDeletePastesInput;
      return queueable(
        { type: 'batchDeletePastes', endpoint: '/pastes/batch-delete', method: 'DELETE', data: body },
        () => api.delete<PastesDeleted>('/pastes/batch-delete', body),
      );
    },
    onSuccess: () => void invalidate(),
  });
}

export function useClearExpiredPastes() {
  const invalidate = useInvalidatePastes();
  return useMutation({
    mutationFn: () =>
      queueable(
        { type: 'clearExpiredPastes', endpoint: '/pastes/clear-expired', method: 'POST', data: { clearExpired: true } },
        () => api.post<PastesDeleted>('/pastes/clear-expired', { clearExpired: true }),
      ),
    onSuccess: () => void invalidate(),
  });
}
