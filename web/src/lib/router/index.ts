/**
 * The app's router: the part of react-router's API the app uses (same names and behaviour), over the browser's
 * history. react-router was the largest library every page loaded (35 KB of the shell) for a table of a dozen
 * routes (issue 21).
 */
export {
  Link,
  Navigate,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useParams,
  useRoutes,
  useSearchParams,
} from './components';
export type { LinkProps, NavLinkProps } from './components';
export { matchRoutes, type RouteMatch, type RouteObject } from './match';
export type { Location } from './location';
