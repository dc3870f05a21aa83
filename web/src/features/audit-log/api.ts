import type { AuditEntry, AuditLogPage } from '@clipnest/contract/audit-log';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, apiUrl, ApiError } from '../../lib/api';
import { authorizationHeader, getSession } from '../../lib/auth';
import { downloadBlob } from '../../lib/downloadBlob';

export type { AuditEntry };

/** Entries per page of the infinite list. */
export const AUDIT_PAGE_SIZE = 100;

export interface AuditFilters {
  action: string;
  actor: string;
  /** `YYYY-MM-DD` in the reader's time zone, or ''. */
  from: string;
  to: string;
}

export const EMPTY_FILTERS: AuditFilters = { action: '', actor: '', from: '', to: '' };

/** The API's query for the filters: days become the local day's first and last instant, as ISO times. */
export function auditQuery(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.action.trim()) query.action = filters.action.trim();
  if (filters.actor.trim()) query.actor = filters.actor.trim();
  if (filters.from) query.from = new Date(`${filters.from}T00:00:00`).toISOString();
  if (filters.to) query.to = new Date(`${filters.to}T23:59:59.999`).toISOString();
  return query;
}

export const auditLogKey = (filters: AuditFilters) => ['admin', 'audit-log', auditQuery(filters)] as const;

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditLogKey(filters),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api.get<AuditLogPage>('/admin/audit-log', {
        signal,
        query: { ...auditQuery(filters), limit: AUDIT_PAGE_SIZE, offset: pageParam },
      }),
    getNextPageParam: (last) => {
      const next = last.offset + last.items.length;
      return last.items.length > 0 && next < last.total ? next : undefined;
    },
  });
}

/** Downloads the whole filtered log as CSV (the server streams it). */
export async function exportAuditCsv(filters: AuditFilters): Promise<void> {
  const header = authorizationHeader(getSession());
  const response = await fetch(
    `${apiUrl('/admin/audit-log')}?${new URLSearchParams({ ...auditQuery(filters), format: 'csv' })}`,
    {
      headers: header ? { Authorization: header } : {},
    },
  );
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    const message = typeof body?.message === 'string' ? body.message : `HTTP ${response.status}`;
    throw new ApiError(message, { status: response.status, serverMessage: message });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'audit-log.csv';
  downloadBlob(await response.blob(), name);
}
