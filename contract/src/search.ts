import { z } from './zod.js';

export const SEARCH_SCOPES = ['global', 'mount', 'directory'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

/** GET /api/fs/search (spec §3 Search, §9: at least 2 characters, limit 50, offset 0). */
export const searchQuerySchema = z
  .strictObject({
    q: z.string().trim().min(2, 'search needs at least 2 characters').max(200, 'search is longer than 200 characters'),
    scope: z.enum(SEARCH_SCOPES).default('global'),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
    mount_id: z.string().min(1).max(64).optional(),
    path: z.string().min(1).max(4096).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.scope === 'mount' && !value.mount_id)
      ctx.addIssue({ code: 'custom', path: ['mount_id'], message: 'mount_id is required for scope mount' });
    if (value.scope === 'directory' && !value.path)
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'path is required for scope directory' });
  });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export interface SearchHit {
  name: string;
  /** Virtual path. */
  path: string;
  isDir: boolean;
  size: number;
  lastModified?: string;
  mountId: string;
}

export interface SearchResult {
  items: SearchHit[];
  total: number;
  limit: number;
  offset: number;
  /** ISO time of the oldest crawl among the searched mounts (null when one was never crawled). */
  indexed_at: string | null;
}
