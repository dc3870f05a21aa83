/** Methods the document describes (Hono's `ALL` and wildcard routes are fallbacks, not operations). */
export const DOCUMENTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A Hono route path as OpenAPI writes it: `/api/pastes/:id` → `/api/pastes/{id}`, `:name{.+}` → `{name}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, '{$1}');
}

/** The key of an operation in the registry: `GET /api/pastes/{id}`. */
export function routeKey(method: string, honoPath: string): string {
  return `${method.toUpperCase()} ${openApiPath(honoPath)}`;
}

/** `/api/…` routes of a Hono app that the document must describe, as registry keys, sorted. */
export function servedOperations(routes: readonly { method: string; path: string }[]): string[] {
  const keys = new Set<string>();
  for (const route of routes) {
    if (!route.path.startsWith('/api/') || route.path.includes('*')) continue;
    if (!(DOCUMENTED_METHODS as readonly string[]).includes(route.method)) continue;
    keys.add(routeKey(route.method, route.path));
  }
  return [...keys].sort();
}
