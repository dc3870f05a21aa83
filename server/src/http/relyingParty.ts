import type { Context } from 'hono';
import type { RelyingParty } from '../services/auth/passkeyService.js';
import { requestOrigin } from './clientAddress.js';

/**
 * PUBLIC_URL when set (behind a reverse proxy it names the address users type), else the request's own origin, with
 * X-Forwarded-Proto/Host believed only under TRUST_PROXY. A passkey works only on the host it was made on.
 */
export function relyingParty(c: Context, trustProxy: boolean, publicUrl?: string): RelyingParty {
  const url = new URL(requestOrigin(c, trustProxy, publicUrl));
  return { rpID: url.hostname, origin: url.origin };
}
