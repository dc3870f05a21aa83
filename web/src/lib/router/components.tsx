import {
  createContext,
  createElement,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { appPath, currentLocation, navigate, subscribeLocation, type Location, type NavigateOptions } from './location';
import { isLinkActive, matchRoutes, type Params, type RouteObject } from './match';

interface RouteContextValue {
  outlet: ReactNode;
  params: Params;
}

const RouteContext = createContext<RouteContextValue>({ outlet: null, params: {} });

export function useLocation(): Location {
  return useSyncExternalStore(subscribeLocation, currentLocation);
}

export function useNavigate(): typeof navigate {
  return navigate;
}

/** The params of the matched routes (`:slug`, and `*` for the rest of a splat path). */
export function useParams(): Params {
  return useContext(RouteContext).params;
}

/** The element of the child route that matched, inside a parent route's element. */
export function Outlet() {
  return useContext(RouteContext).outlet;
}

/** Renders the routes that match the address: each element gets the next one as its Outlet. */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const { pathname } = useLocation();
  const matches = useMemo(() => matchRoutes(routes, pathname), [routes, pathname]);
  if (!matches) return null;
  return matches.reduceRight<ReactNode>(
    (outlet, match) =>
      createElement(RouteContext.Provider, { value: { outlet, params: match.params } }, match.route.element ?? outlet),
    null,
  );
}

/** Goes to `to` once rendered (a redirect). */
export function Navigate({ to, replace }: { to: string } & NavigateOptions) {
  useEffect(() => {
    navigate(to, { replace });
  }, [to, replace]);
  return null;
}

export function useSearchParams(): [
  URLSearchParams,
  (next: Record<string, string>, options?: NavigateOptions) => void,
] {
  const { pathname, search } = useLocation();
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

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
}

/** A plain click (no modifier key, same tab) navigates in the app; anything else is the browser's. */
function isAppClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined, download: unknown): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (!target || target === '_self') &&
    download === undefined
  );
}

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, onClick, target, ...rest },
  ref,
) {
  return (
    <a
      {...rest}
      ref={ref}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!isAppClick(event, target, rest.download) || appPath(to) === null) return;
        event.preventDefault();
        navigate(to, { replace });
      }}
    />
  );
});

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  className?: string | ((state: { isActive: boolean }) => string);
  /** Active only on this exact path, not below it. */
  end?: boolean;
}

/** A Link that knows whether it leads to the page shown (`aria-current="page"`, and its class). */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
  { to, end, className, ...rest },
  ref,
) {
  const isActive = isLinkActive(useLocation().pathname, to, end);
  return (
    <Link
      {...rest}
      ref={ref}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    />
  );
});
