/**
 * What the app adds to wouter (the router): an exact reading of the address, links that know they are current,
 * and query-string updates that keep the path as it is.
 */
import { useCallback, useMemo, type AnchorHTMLAttributes } from 'react';
import { Link, useLocation, type BaseLocationHook } from 'wouter';
import {
  navigate as browserNavigate,
  useBrowserLocation,
  usePathname as useRawPathname,
  useSearch as useRawSearch,
} from 'wouter/use-browser-location';

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

/**
 * The path as routes read it: each segment percent-decoded once, an encoded "/" kept as "%2F" so it cannot split
 * a name in two, an undecodable segment kept as it came. wouter decodes the path with `decodeURI`, which keeps
 * `%26`, `%3F`, `%23`… encoded and turns `%25` into a bare "%" (a file named `a&b` or `100%` would read wrong), so
 * the segments are decoded here and only "%" and "/" are escaped for its `decodeURI` to undo.
 */
export function routePath(rawPathname: string): string {
  return rawPathname
    .split('/')
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Kept as it came.
      }
      return decoded.replaceAll('%', '%25').replaceAll('/', '%2F');
    })
    .join('/');
}

/** Goes to `to`; going to where the page already is adds no entry, so Back does not seem to do nothing. */
export function navigate(to: string, { replace }: NavigateOptions = {}): void {
  const here = window.location.pathname + window.location.search + window.location.hash;
  const target = new URL(to, window.location.href);
  const same = target.pathname + target.search + target.hash === here;
  browserNavigate(to, { replace: replace === true || same });
}

/** The browser's location for wouter's `<Router hook>`, read as `routePath` says. */
export const useAppLocation: BaseLocationHook = () => {
  const [pathname] = useBrowserLocation();
  return [useMemo(() => routePath(pathname), [pathname]), navigate];
};

export function useNavigate(): typeof navigate {
  return navigate;
}

/** The current path, decoded (see `routePath`). */
export function usePathname(): string {
  return useLocation()[0];
}

/** The query string as `URLSearchParams`, and a setter that keeps the path exactly as the address has it. */
export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string>, options?: NavigateOptions) => void,
] {
  const pathname = useRawPathname();
  const search = useRawSearch();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: Record<string, string>, options?: NavigateOptions) => {
      const query = new URLSearchParams(next).toString();
      navigate(query ? `${pathname}?${query}` : pathname, options);
    },
    [pathname],
  );
  return [params, setParams];
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

export type NavLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'className' | 'href'> & {
  to: string;
  replace?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
  /** Active only on this exact path, not below it. */
  end?: boolean;
};

/** A link that knows whether it leads to the page shown (`aria-current="page"`, and its class). */
export function NavLink({ to, end, className, ...rest }: NavLinkProps) {
  const isActive = isLinkActive(usePathname(), to, end);
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    />
  );
}
