// Network first, offline copy second: a read that succeeds is kept in the offline database, and when the
// network is gone (no answer at all, not an HTTP error) the kept copy answers instead.
import { isApiError } from '../api';
import type { CacheStore } from './db';

const offlineCopies = new WeakMap<object, number>();

/** When `value` came from the offline database: the time it was cached; undefined for live answers. */
export function offlineCachedAt(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null ? offlineCopies.get(value) : undefined;
}

function unreachable(error: unknown): boolean {
  return isApiError(error) && (error.transport === 'network' || error.transport === 'timeout');
}

export async function readThrough<T extends object>(
  store: CacheStore,
  key: string,
  fetcher: () => Promise<T>,
  keep: (value: T) => boolean = () => true,
): Promise<T> {
  try {
    const value = await fetcher();
    if (keep(value)) {
      // The module (and idb) load only now, after the page has what it needs.
      void import('./cache').then((m) => m.putCached(store, key, value)).catch(() => undefined);
    }
    return value;
  } catch (error) {
    if (!unreachable(error)) throw error;
    const copy = await import('./cache').then((m) => m.getCached<T>(store, key)).catch(() => null);
    if (!copy) throw error;
    offlineCopies.set(copy.value, copy.cachedAt);
    return copy.value;
  }
}
