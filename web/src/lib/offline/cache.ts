// Cached reads for offline use: what the user opened is kept (with cachedAt) and served when the network is gone.
import { CACHE_STORES, OFFLINE_CACHE_TTL_MS, offlineDb, type CacheStore } from './db';

export interface OfflineCopy<T> {
  value: T;
  cachedAt: number;
}

export async function putCached<T>(store: CacheStore, key: string, value: T, now = Date.now()): Promise<void> {
  const db = await offlineDb();
  await db.put(store, { key, value, cachedAt: now });
}

/** The cached entry, or null when missing or older than the 7-day expiry. */
export async function getCached<T>(store: CacheStore, key: string, now = Date.now()): Promise<OfflineCopy<T> | null> {
  const db = await offlineDb();
  const entry = await db.get(store, key);
  if (!entry) return null;
  if (now - entry.cachedAt > OFFLINE_CACHE_TTL_MS) {
    await db.delete(store, key);
    return null;
  }
  return { value: entry.value as T, cachedAt: entry.cachedAt };
}

export async function deleteCached(store: CacheStore, key: string): Promise<void> {
  await (await offlineDb()).delete(store, key);
}

/** Drops expired entries of every cache store. */
export async function sweepExpired(now = Date.now()): Promise<number> {
  const db = await offlineDb();
  let removed = 0;
  for (const store of CACHE_STORES) {
    let cursor = await db.transaction(store, 'readwrite').store.openCursor();
    while (cursor) {
      if (now - cursor.value.cachedAt > OFFLINE_CACHE_TTL_MS) {
        await cursor.delete();
        removed++;
      }
      cursor = await cursor.continue();
    }
  }
  return removed;
}

/**
 * On logout: what a signed-in user listed (explorer folders) and anything cached under their session goes.
 * Public pastes and file metadata stay (anyone with the link could read them).
 */
export async function clearPrivateCaches(): Promise<void> {
  const db = await offlineDb();
  await db.clear('directories');
  await db.clear('settings');
}
