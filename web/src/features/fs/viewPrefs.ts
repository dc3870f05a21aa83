/** Explorer view choice, sort, filter and gallery settings (remembered locally). Pure, unit-tested. */
import type { FsEntryView } from '@clipnest/contract';
import { safeStorage } from '../../lib/storageKeys';
import { entryKind } from './kinds';

export const VIEW_MODES = ['list', 'grid', 'gallery'] as const;
export type ViewMode = (typeof VIEW_MODES)[number];
export const SORT_KEYS = ['name', 'size', 'modified', 'type'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface ExplorerPrefs {
  view: ViewMode;
  sort: SortKey;
  desc: boolean;
  gallery: { columns: number; spacing: number; imagesOnly: boolean };
}

export const DEFAULT_PREFS: ExplorerPrefs = {
  view: 'list',
  sort: 'name',
  desc: false,
  gallery: { columns: 4, spacing: 8, imagesOnly: true },
};

export const PREFS_KEY = 'mount_explorer_prefs';

export function readPrefs(raw: string | null = safeStorage.get(PREFS_KEY)): ExplorerPrefs {
  try {
    const p = JSON.parse(raw ?? '{}') as Partial<ExplorerPrefs>;
    const g = { ...DEFAULT_PREFS.gallery, ...(p.gallery ?? {}) };
    return {
      view: VIEW_MODES.includes(p.view as ViewMode) ? (p.view as ViewMode) : DEFAULT_PREFS.view,
      sort: SORT_KEYS.includes(p.sort as SortKey) ? (p.sort as SortKey) : DEFAULT_PREFS.sort,
      desc: p.desc === true,
      gallery: {
        columns: clamp(Number(g.columns), 1, 8, DEFAULT_PREFS.gallery.columns),
        spacing: clamp(Number(g.spacing), 0, 24, DEFAULT_PREFS.gallery.spacing),
        imagesOnly: g.imagesOnly !== false,
      },
    };
  } catch {
    return DEFAULT_PREFS;
  }
}

export function writePrefs(prefs: ExplorerPrefs): void {
  safeStorage.set(PREFS_KEY, JSON.stringify(prefs));
}

function clamp(n: number, min: number, max: number, fallback: number): number {
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
}

export function isImage(entry: FsEntryView): boolean {
  return !entry.isDirectory && entryKind(entry) === 'image';
}

export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(i + 1).toLowerCase() : '';
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Folders first, then by the key; a case-insensitive name filter. */
export function sortAndFilter(
  entries: FsEntryView[],
  { sort, desc, filter }: { sort: SortKey; desc: boolean; filter: string },
): FsEntryView[] {
  const needle = filter.trim().toLowerCase();
  const list = needle ? entries.filter((e) => e.name.toLowerCase().includes(needle)) : entries.slice();
  const dir = desc ? -1 : 1;
  const by = (a: FsEntryView, b: FsEntryView): number => {
    switch (sort) {
      case 'size':
        return a.size - b.size;
      case 'modified':
        return (a.modified ?? '').localeCompare(b.modified ?? '');
      case 'type':
        return extensionOf(a.name).localeCompare(extensionOf(b.name));
      default:
        return 0;
    }
  };
  return list.sort((a, b) => {
    if (a.isDirectory !== b.isDirectory) return a.isDirectory ? -1 : 1;
    return (by(a, b) || collator.compare(a.name, b.name)) * dir;
  });
}
