import type { Hono } from 'hono';

/** Every `/api/…` route of the app without a wildcard, once per method and path (suites that try them all). */
export function apiRoutes(app: Pick<Hono, 'routes'>) {
  return [
    ...new Map(
      app.routes
        .filter((route) => route.path.startsWith('/api/') && !route.path.includes('*'))
        .filter((route) => ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(route.method))
        .map((route) => [`${route.method} ${route.path}`, route] as const),
    ).values(),
  ];
}
