import type { Principal } from '../auth/principal.js';

/** Per-request values Hono carries (`c.get(...)`). */
export interface AppEnv {
  Variables: {
    /** Set once credentials are resolved; undefined for anonymous requests. */
    principal?: Principal | null;
    /** The client's address (http/clientAddress.ts), set for every /api request from TRUST_PROXY(_HOPS). */
    clientAddress: string;
    /** The request's id (http/observability.ts), in its log lines and the X-Request-Id answer header. */
    requestId?: string;
    /** Why the API key this request sent was refused (http/auth.ts), for the audit trail; never the key. */
    credentialFailure?: string;
  };
}
