import type { ApiKeyView } from '@clipnest/contract';

export type SortColumn = 'name' | 'expires' | 'lastUsed' | 'created';
export interface SortState {
  column: SortColumn;
  direction: 'asc' | 'desc';
}

export function filterKeys(keys: ApiKeyView[], query: string): ApiKeyView[] {
  const q = query.trim().toLowerCase();
  if (!q) return keys;
  return keys.filter((key) => key.name.toLowerCase().includes(q) || key.basic_path.toLowerCase().includes(q));
}

function time(value: string | null, missing: number): number {
  if (!value) return missing;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? missing : t;
}

/** Sorts a copy. Keys that never expire sort after every date; never-used keys before every date. */
export function sortKeys(keys: ApiKeyView[], sort: SortState): ApiKeyView[] {
  const dir = sort.direction === 'asc' ? 1 : -1;
  const value = (key: ApiKeyView): number | string => {
    switch (sort.column) {
      case 'name':
        return key.name.toLowerCase();
      case 'expires':
        return time(key.expires_at, Number.POSITIVE_INFINITY);
      case 'lastUsed':
        return time(key.last_used, Number.NEGATIVE_INFINITY);
      case 'created':
        return time(key.created_at, 0);
    }
  };
  return [...keys].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === vb) return a.id.localeCompare(b.id);
    if (typeof va === 'string' && typeof vb === 'string') return va.localeCompare(vb) * dir;
    return (va < vb ? -1 : 1) * dir;
  });
}
