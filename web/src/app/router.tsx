import { createElement, lazy, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { loadTextAreas, type TextArea } from '../lib/i18n';
import { useAppLocation } from '../lib/navigation';
import { RootLayout } from './layout/RootLayout';
import { ADMIN_FRAME_AREAS, ADMIN_PATH, ADMIN_ROUTES, PUBLIC_ROUTES, type ScreenRoute } from './routes';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * A screen chunk that renders once its code and the text areas it uses are in, both fetched at once.
 * `preload` starts both early (main.tsx calls it for the first URL, in parallel with the core texts, and renders
 * once they are in). A screen already loaded renders at once: unlike `lazy`, no fallback is committed first and
 * replaced a moment later (a second render of the page on every cold load). While loading it suspends;
 * a failed load goes to the route's error boundary, and the next render tries again.
 */
function screen<P extends object>(load: Loader<P>, areas: readonly TextArea[] = []) {
  let loaded: ComponentType<P> | undefined;
  let failure: { error: unknown } | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= Promise.all([load(), loadTextAreas(areas)]).then(
      ([module]) => {
        loaded = module.default;
      },
      (error: unknown) => {
        failure = { error };
        pending = undefined;
      },
    ));
  function Screen(props: P) {
    if (loaded) return createElement(loaded, props);
    if (failure) {
      const { error } = failure;
      failure = undefined;
      throw error;
    }
    // Suspense waits for a thrown promise, then renders this again.
    throw preload();
  }
  return Object.assign(Screen, { preload });
}

// Every screen is its own chunk: the shell stays small as later issues add heavy editors and viewers.
const screenModules = import.meta.glob<{ default: ComponentType }>('../features/*/*Page.tsx');

function routeScreen(route: ScreenRoute) {
  const load = screenModules[`../${route.module}`];
  if (!load) throw new Error(`app/routes.ts names ${route.module}, which is not a screen module`);
  return screen(load, route.areas);
}

const publicScreens = PUBLIC_ROUTES.map((route) => ({ route, Screen: routeScreen(route) }));
const adminScreens = ADMIN_ROUTES.map((route) => ({ route, Screen: routeScreen(route) }));

// The admin frame (login, sidebar, guards) loads with the first admin page, never on a public page.
const AdminGate = screen<{ children: ReactNode }>(
  () => import('./admin/AdminGate').then((m) => ({ default: m.AdminGate })),
  ADMIN_FRAME_AREAS,
);
const RequireAdminPage = lazy(() => import('./admin/AdminGate').then((m) => ({ default: m.RequireAdminPage })));

/**
 * Starts loading the screen of `pathname` (code and texts) before the first render, so the route chunk does not
 * wait for the shell to render first. Admin screens load only with a saved session (else the login shows).
 */
export function preloadScreen(pathname: string, signedIn: boolean): Promise<unknown> {
  const path = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  const first = path.split('/')[1] ?? '';
  if (first === 'admin') {
    const gate = AdminGate.preload();
    if (!signedIn) return gate;
    void import('./admin/AdminSidebar');
    return Promise.all([gate, adminScreens.find(({ route }) => route.path === path)?.Screen.preload()]);
  }
  const found = publicScreens.find(({ route }) => route.path.split('/')[1] === first);
  return found?.Screen.preload() ?? Promise.resolve();
}

/** Routes exactly as spec §2 (app/routes.ts); any other address redirects to `/`. */
export function AppRoutes() {
  return (
    <Router hook={useAppLocation}>
      <RootLayout>
        <Switch>
          {publicScreens.map(({ route, Screen }) => (
            <Route key={route.path} path={route.path}>
              <Screen />
            </Route>
          ))}
          <Route path={ADMIN_PATH}>
            <AdminGate>
              <Switch>
                {adminScreens.map(({ route, Screen }) => (
                  <Route key={route.page} path={route.path}>
                    <RequireAdminPage page={route.page}>
                      <Screen />
                    </RequireAdminPage>
                  </Route>
                ))}
              </Switch>
            </AdminGate>
          </Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </RootLayout>
    </Router>
  );
}
