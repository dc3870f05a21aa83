/** Recent explorer searches, kept locally (newest first, a few, clearable). Pure parts tested. */
import { createLocalStore } from './localStore';

export const RECENT_KEY = 'mount_explorer_recent_searches';
export const RECENT_MAX = 8;

export function pushRecent(list: string[], q: string, max = RECENT_MAX): string[] {
  const term = q.trim();
  if (!term) return list;
  return [term, ...list.filter((x) => x.toLowerCase() !== term.toLowerCase())].slice(0, max);
}

export function parseRecent(raw: string | null): string[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

const store = createLocalStore(RECENT_KEY, parseRecent);

export const recentSearches = {
  add: (q: string) => store.set(pushRecent(store.get(), q)),
  clear: () => store.set([]),
};

export const useRecentSearches = store.use;
