import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's address. Without TRUST_PROXY: the socket's peer. With it: the X-Forwarded-For entry
 * added by the nearest trusted proxy, counting `hops` proxies from the right (each proxy appends the
 * address it received from), never the leftmost entry, which the client writes itself. A header with
 * fewer entries than hops gives its leftmost entry, as a chain of fewer proxies would have written it.
 */
export function clientAddress(c: Context, trustProxy: boolean, hops = 1): string {
  if (trustProxy) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const forwarded = entries[Math.max(0, entries.length - Math.max(1, hops))];
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The origin clients reached us at, for absolute links: PUBLIC_URL when set, else the request URL,
 * with X-Forwarded-Proto/Host believed only when TRUST_PROXY is on.
 */
export function requestOrigin(c: Context, trustProxy: boolean, publicUrl?: string): string {
  if (publicUrl) return publicUrl;
  const url = new URL(c.req.url);
  if (trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto && /^https?$/.test(proto)) url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) url.host = host;
  }
  return url.origin;
}
