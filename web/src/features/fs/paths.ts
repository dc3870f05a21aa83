/** Virtual paths ↔ explorer URLs (spec §2: /mount-explorer/{path…}). Pure, unit-tested. */
export const EXPLORER_BASE = '/mount-explorer';

export function joinPath(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, '')}/${name}`;
}

export function parentPath(path: string): string {
  const i = path.replace(/\/+$/, '').lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.replace(/\/+$/, '').split('/').pop() ?? '';
}

/** `/a/b c` → `/mount-explorer/a/b%20c`. */
export function explorerHref(path: string, preview?: string): string {
  const segments = path.split('/').filter(Boolean).map(encodeURIComponent);
  const base = segments.length ? `${EXPLORER_BASE}/${segments.join('/')}` : EXPLORER_BASE;
  return preview ? `${base}?preview=${encodeURIComponent(preview)}` : base;
}

/** The splat of /mount-explorer/* (as lib/router hands it, decoded) → a virtual path. */
export function pathFromSplat(splat: string | undefined): string {
  const segments = (splat ?? '').split('/').filter(Boolean);
  return `/${segments.join('/')}`;
}

/** Breadcrumb trail: [{name:'', path:'/'}, {name:'a', path:'/a'}, …]. */
export function crumbs(path: string): { name: string; path: string }[] {
  const out = [{ name: '', path: '/' }];
  let acc = '';
  for (const seg of path.split('/').filter(Boolean)) {
    acc += `/${seg}`;
    out.push({ name: seg, path: acc });
  }
  return out;
}

/** `inner` at or under `base` on segment boundaries (`/team` does not hold `/team-b`). */
export function isWithin(inner: string, base: string): boolean {
  if (base === '/' || base === '') return true;
  const b = base.replace(/\/+$/, '');
  return inner === b || inner.startsWith(`${b}/`);
}
