/**
 * The browser's location as a store the UI subscribes to: pushState/replaceState to navigate, popstate for
 * Back and Forward. One per page, so there is no router provider.
 */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

const listeners = new Set<() => void>();
let current = read();

function read(): Location {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash };
}

function changed(): void {
  current = read();
  listeners.forEach((listener) => listener());
}

window.addEventListener('popstate', changed);

export function subscribeLocation(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentLocation(): Location {
  return current;
}

/** `to` resolved against the current address: the in-app path, or null when it leaves this origin. */
export function appPath(to: string): string | null {
  const url = new URL(to, window.location.href);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : null;
}

/** Goes to `to` (a path, or a step back/forward through history such as -1). */
export function navigate(to: string | number, { replace }: NavigateOptions = {}): void {
  if (typeof to === 'number') {
    window.history.go(to);
    return;
  }
  const path = appPath(to);
  if (path === null) {
    window.location.assign(to);
    return;
  }
  // Going to where the page already is adds no entry, so Back does not seem to do nothing.
  const here = current.pathname + current.search + current.hash;
  if (replace || path === here) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  changed();
}
