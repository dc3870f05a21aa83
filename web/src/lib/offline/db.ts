// The offline database (spec §3 "Offline local database stores"): what the user opened, readable without a
// network, and the queue of requests made offline. One IndexedDB database through `idb`.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** Offline cache expiry (spec §9): entries older than 7 days are not served and are swept. */
export const OFFLINE_CACHE_TTL_MS = 604_800_000;
export const OFFLINE_DB_NAME = 'clipnest-offline';

export type QueueStatus = 'pending' | 'failed' | 'conflict';

/** A state-changing request made while offline (spec §3 "Queued offline request"). */
export interface QueuedRequest {
  id?: number;
  type:
    'createPaste' | 'updatePaste' | 'updateGroupSettings' | 'batchDeletePastes' | 'clearExpiredPastes' | 'clearCache';
  endpoint: string;
  method: 'POST' | 'PUT' | 'DELETE';
  /** The JSON body, sealed (secretBox) when it carries a password. */
  data: unknown;
  sealed: boolean;
  /** The credential in force when it was queued, sealed; empty for anonymous requests. */
  authToken: string;
  authType: 'none' | 'bearer' | 'apikey';
  timestamp: number;
  status: QueueStatus;
  /** Why the last replay failed (shown to the user). */
  error?: string;
}

export interface Cached<T> {
  key: string;
  value: T;
  cachedAt: number;
}

export type CacheStore = 'pastes' | 'files' | 'directories' | 'settings';

interface OfflineSchema extends DBSchema {
  pastes: { key: string; value: Cached<unknown> };
  files: { key: string; value: Cached<unknown> };
  directories: { key: string; value: Cached<unknown> };
  settings: { key: string; value: Cached<unknown> };
  offlineQueue: { key: number; value: QueuedRequest };
  searchHistory: { key: string; value: Cached<string> };
  keys: { key: string; value: { key: string; value: CryptoKey } };
}

export const CACHE_STORES: CacheStore[] = ['pastes', 'files', 'directories', 'settings'];

/** 1.2.3 → 1002003: a new app version opens a new database version, which drops the cached pages. */
export function dbVersionOf(appVersion: string): number {
  const [major = 0, minor = 0, patch = 0] = appVersion.split(/[.+-]/).map((n) => Number.parseInt(n, 10) || 0);
  return Math.max(1, major * 1_000_000 + minor * 1_000 + patch);
}

const APP_VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.1';

let opened: Promise<IDBPDatabase<OfflineSchema>> | null = null;

export function offlineDb(): Promise<IDBPDatabase<OfflineSchema>> {
  opened ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, dbVersionOf(APP_VERSION), {
    upgrade(db) {
      // Cached reads belong to one app version; the queue and its key survive upgrades (user data).
      for (const name of [...CACHE_STORES, 'searchHistory'] as const) {
        if (db.objectStoreNames.contains(name)) db.deleteObjectStore(name);
        db.createObjectStore(name, { keyPath: 'key' });
      }
      if (!db.objectStoreNames.contains('offlineQueue')) {
        db.createObjectStore('offlineQueue', { keyPath: 'id', autoIncrement: true });
      }
      if (!db.objectStoreNames.contains('keys')) db.createObjectStore('keys', { keyPath: 'key' });
    },
    blocking() {
      // A newer tab wants to upgrade: let it.
      void opened?.then((db) => db.close());
      opened = null;
    },
  });
  return opened;
}
