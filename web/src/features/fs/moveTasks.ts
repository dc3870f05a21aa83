import { createLocalStore } from './localStore';

/**
 * The copy tasks this browser started as the first half of a move across mounts (a move between mounts is
 * a copy task, then the sources are deleted): their titles say "Move". The newest 200 are kept.
 */
const store = createLocalStore<string[]>('clipnest-fs-move-tasks', (raw) => {
  try {
    const value: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
});

/** This tab's marks too, for when storage is unavailable (private modes, tests without a DOM). */
const here = new Set<string>();

export const moveTasks = {
  mark(id: string): void {
    here.add(id);
    store.set([id, ...store.get().filter((v) => v !== id)].slice(0, 200));
  },
  has(id: string | undefined): boolean {
    return id !== undefined && (here.has(id) || store.get().includes(id));
  },
};
