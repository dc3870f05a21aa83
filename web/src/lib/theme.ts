/** Theme modes (spec §1, §9): auto → light → dark, saved under `themeMode`. */
import { useSyncExternalStore } from 'react';
import { safeStorage, StorageKeys } from './storageKeys';

export const THEME_MODES = ['auto', 'light', 'dark'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];

export function isThemeMode(value: unknown): value is ThemeMode {
  return value === 'auto' || value === 'light' || value === 'dark';
}

/** The toggle cycles auto → light → dark → auto. */
export function nextThemeMode(mode: ThemeMode): ThemeMode {
  return mode === 'auto' ? 'light' : mode === 'light' ? 'dark' : 'auto';
}

export function resolveTheme(mode: ThemeMode, systemDark: boolean): 'light' | 'dark' {
  return mode === 'auto' ? (systemDark ? 'dark' : 'light') : mode;
}

// The system preference is read from the query once, then kept from its change events. Reading
// `darkQuery.matches` later (React's getSnapshot did, on every render) re-evaluates the query in
// Chromium and updates the value the browser compares against when it next checks media queries:
// a render between a system switch and that check swallowed the change event, and the page stayed in
// the old scheme (the flaky e2e "auto follows the system colour scheme").
const darkQuery = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
let systemDark = darkQuery?.matches ?? false;
let mode: ThemeMode = isThemeMode(safeStorage.get(StorageKeys.themeMode))
  ? (safeStorage.get(StorageKeys.themeMode) as ThemeMode)
  : 'auto';
const listeners = new Set<() => void>();

function apply(): void {
  if (typeof document === 'undefined') return;
  const resolved = resolveTheme(mode, systemDark);
  const root = document.documentElement;
  root.classList.toggle('dark', resolved === 'dark');
  root.style.colorScheme = resolved;
}

function notify(): void {
  apply();
  for (const listener of listeners) listener();
}

darkQuery?.addEventListener('change', (event) => {
  systemDark = event.matches;
  if (mode === 'auto') notify();
});

export function getThemeMode(): ThemeMode {
  return mode;
}

export function setThemeMode(next: ThemeMode): void {
  mode = next;
  safeStorage.set(StorageKeys.themeMode, next);
  notify();
}

export function getResolvedTheme(): 'light' | 'dark' {
  return resolveTheme(mode, systemDark);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(subscribe, getThemeMode, getThemeMode);
}

export function useResolvedTheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribe, getResolvedTheme, getResolvedTheme);
}

apply();
