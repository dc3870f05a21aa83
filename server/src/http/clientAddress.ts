import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The client's address; X-Forwarded-For is believed only when TRUST_PROXY is on. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
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
