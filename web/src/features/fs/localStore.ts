/** A value kept in localStorage under one key, shared by every component (and tab, via the storage event). */
import { useSyncExternalStore } from 'react';
import { safeStorage } from '../../lib/storageKeys';

export function createLocalStore<T>(key: string, parse: (raw: string | null) => T) {
  const listeners = new Set<() => void>();
  let cache: { raw: string | null; value: T } = { raw: null, value: parse(null) };
  const get = (): T => {
    const raw = safeStorage.get(key);
    if (raw !== cache.raw) cache = { raw, value: parse(raw) };
    return cache.value;
  };
  const set = (value: T) => {
    safeStorage.set(key, JSON.stringify(value));
    for (const l of listeners) l();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    window.addEventListener('storage', listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', listener);
    };
  };
  const use = (): T => useSyncExternalStore(subscribe, get, () => cache.value);
  return { get, set, use };
}
