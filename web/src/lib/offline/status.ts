// What the shell knows about the offline layer without loading it: the network state and how many queued
// requests wait (mirrored in localStorage by the queue), so IndexedDB code loads only when needed.
import { useSyncExternalStore } from 'react';
import { safeStorage, StorageKeys } from '../storageKeys';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

const countListeners = new Set<() => void>();

export function pendingCount(): number {
  return Number.parseInt(safeStorage.get(StorageKeys.offlineQueueCount) ?? '0', 10) || 0;
}

export function setPendingCount(count: number): void {
  safeStorage.set(StorageKeys.offlineQueueCount, String(count));
  for (const listener of countListeners) listener();
}

function subscribeCount(listener: () => void): () => void {
  countListeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === StorageKeys.offlineQueueCount) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    countListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function usePendingCount(): number {
  return useSyncExternalStore(subscribeCount, pendingCount, () => 0);
}

/** true for the error `sendOrQueue`/`createPaste` throw when the request was queued offline (no idb import). */
export function isQueuedOffline(error: unknown): boolean {
  return error instanceof Error && error.name === 'QueuedOffline';
}
