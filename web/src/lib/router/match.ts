import type { ReactNode } from 'react';

/** A route of the app's table (the subset of react-router's RouteObject the app uses). */
export interface RouteObject {
  /** Segments below the parent: `upload`, `paste/:slug`, `mount-explorer/*` (the rest, as the `*` param). */
  path?: string;
  /** Matches the parent's own address. */
  index?: boolean;
  element?: ReactNode;
  children?: RouteObject[];
  handle?: unknown;
}

export type Params = Record<string, string | undefined>;

export interface RouteMatch {
  route: RouteObject;
  params: Params;
}

/**
 * A path segment as the app reads it: percent-decoded, except that an encoded "/" stays "%2F" so it cannot
 * split a name into two segments. An undecodable segment is kept as it came.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).replace(/\//g, '%2F');
  } catch {
    return segment;
  }
}

function matchRoute(route: RouteObject, segments: string[], params: Params): RouteMatch[] | null {
  if (route.index) return segments.length === 0 ? [{ route, params }] : null;
  const pattern = (route.path ?? '').split('/').filter(Boolean);
  const own: Params = { ...params };
  let rest = segments;
  for (const part of pattern) {
    if (part === '*') {
      own['*'] = rest.map(decodeSegment).join('/');
      rest = [];
      break;
    }
    const [segment] = rest;
    if (segment === undefined) return null;
    if (part.startsWith(':')) own[part.slice(1)] = decodeSegment(segment);
    else if (part.toLowerCase() !== decodeSegment(segment).toLowerCase()) return null;
    rest = rest.slice(1);
  }
  if (route.children) {
    const inner = matchList(route.children, rest, own);
    if (inner) return [{ route, params: own }, ...inner];
  }
  return rest.length === 0 ? [{ route, params: own }] : null;
}

function matchList(routes: RouteObject[], segments: string[], params: Params): RouteMatch[] | null {
  for (const route of routes) {
    const found = matchRoute(route, segments, params);
    if (found) return found;
  }
  return null;
}

/**
 * The chain of routes (outermost first) that `pathname` renders, or null. Routes are tried in table order, so a
 * catch-all `*` goes last; static segments compare without regard to case, as react-router does.
 */
export function matchRoutes(routes: RouteObject[], location: { pathname: string } | string): RouteMatch[] | null {
  const pathname = typeof location === 'string' ? location : location.pathname;
  return matchList(routes, pathname.split('/').filter(Boolean), {});
}

/**
 * Whether a link to `to` leads to the page at `pathname`: the same path, or (unless `end`) a page below it.
 * Home ("/") counts on itself only, or it would be active everywhere.
 */
export function isLinkActive(pathname: string, to: string, end = false): boolean {
  const here = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  const target =
    to
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .toLowerCase() || '/';
  return here === target || (!end && target !== '/' && here.startsWith(`${target}/`));
}
