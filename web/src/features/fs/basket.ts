/** The file basket (spec §3): files from any folder or mount, kept in localStorage, packed as one zip. Pure parts tested. */
import type { FsEntryView } from '@clipnest/contract';
import { createLocalStore } from './localStore';
import { parentPath } from './paths';

export const BASKET_KEY = 'mount_explorer_basket';
/** A zip of at least this many bytes asks before it starts ("large"). */
export const BASKET_LARGE_BYTES = 1024 ** 3;
/** At least this many bytes: a stronger warning (long download, Zip64 that very old tools cannot open). */
export const BASKET_VERY_LARGE_BYTES = 4 * 1024 ** 3;
/** At most this many files (the zip endpoint takes 1,000 paths per request). */
export const BASKET_MAX_ITEMS = 1000;

export interface BasketItem {
  path: string;
  name: string;
  size: number;
  /** The folder it was added from. */
  folder: string;
  /** ISO 8601. */
  addedAt: string;
}

export type SizeLevel = 'normal' | 'large' | 'veryLarge';

export function sizeLevel(bytes: number): SizeLevel {
  return bytes >= BASKET_VERY_LARGE_BYTES ? 'veryLarge' : bytes >= BASKET_LARGE_BYTES ? 'large' : 'normal';
}

export function parseBasket(raw: string | null): BasketItem[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    if (!Array.isArray(list)) return [];
    return list.filter(
      (i): i is BasketItem =>
        typeof i === 'object' &&
        i !== null &&
        typeof (i as BasketItem).path === 'string' &&
        typeof (i as BasketItem).name === 'string' &&
        typeof (i as BasketItem).size === 'number',
    );
  } catch {
    return [];
  }
}

/** Adds files (folders are skipped; a path already there is not added twice). Returns the new list and how many were added. */
export function addEntries(
  items: BasketItem[],
  entries: FsEntryView[],
  now = new Date().toISOString(),
): { items: BasketItem[]; added: number } {
  const have = new Set(items.map((i) => i.path));
  const next = [...items];
  for (const e of entries) {
    if (e.isDirectory || have.has(e.path) || next.length >= BASKET_MAX_ITEMS) continue;
    have.add(e.path);
    next.push({ path: e.path, name: e.name, size: e.size, folder: parentPath(e.path), addedAt: now });
  }
  return { items: next, added: next.length - items.length };
}

export const totalSize = (items: BasketItem[]) => items.reduce((sum, i) => sum + i.size, 0);

const store = createLocalStore(BASKET_KEY, parseBasket);

export const basket = {
  add(entries: FsEntryView[]): number {
    const { items, added } = addEntries(store.get(), entries);
    if (added > 0) store.set(items);
    return added;
  },
  remove(path: string) {
    store.set(store.get().filter((i) => i.path !== path));
  },
  clear() {
    store.set([]);
  },
};

export const useBasket = store.use;
