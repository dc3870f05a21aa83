import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header, read from Node's own parsed headers when the app runs on @hono/node-server: `c.req.header()`
 * first builds a web Headers object from every header of the request, a cost a small JSON answer feels.
 * Node joins a repeated header with ", " as Headers does, except the few it keeps once (Authorization, Host,
 * Content-Type, Content-Length…): those keep their first value. Elsewhere (app.request in tests) Hono's own.
 */
export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
