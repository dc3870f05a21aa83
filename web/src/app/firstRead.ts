/**
 * The first screen's data request, sent while the screen's code still downloads (main.tsx): a cold load of a
 * shared paste or file waits one round trip less. It is the screen's own query, so the screen finds the
 * answer in the cache and never sends it twice (each answer counts a view on the server).
 */
import { matchRoute } from 'wouter';
import { parse } from 'regexparam';
import { publicFileQuery } from '../features/file-view/api';
import { pasteViewQuery } from '../features/pastes/api';
import { routePath } from '../lib/navigation';
import { queryClient } from '../lib/queryClient';

/** How long a prefetched answer waits for its screen, whose code may still be on the way. */
const WAIT_FOR_SCREEN_MS = 30_000;

/** Pattern (as in app/routes.ts) → the prefetch of the query its screen reads first. */
const FIRST_READS: Record<string, (slug: string) => Promise<void>> = {
  '/paste/:slug': (slug) => queryClient.prefetchQuery({ ...pasteViewQuery(slug), gcTime: WAIT_FOR_SCREEN_MS }),
  '/file/:slug': (slug) => queryClient.prefetchQuery({ ...publicFileQuery(slug), gcTime: WAIT_FOR_SCREEN_MS }),
};

/** Starts the first read of the page at `pathname` (the address as the browser has it), if it has one. */
export function prefetchFirstRead(pathname: string): void {
  // As wouter reads it: routePath's segments, then its decodeURI (which routePath's escapes survive).
  const path = decodeURI(routePath(pathname));
  for (const [pattern, prefetch] of Object.entries(FIRST_READS)) {
    const [matched, params] = matchRoute(parse, pattern, path);
    const slug = matched ? (params as { slug?: string }).slug : undefined;
    if (slug) void prefetch(slug);
  }
}
