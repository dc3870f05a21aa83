import { hasPermission } from '@clipnest/contract';
import type { Context } from 'hono';
import { AppError } from '../errors.js';
import type { ApiKeyService } from '../services/auth/apiKeyService.js';
import type { AuthService } from '../services/auth/authService.js';
import type { AdminPrincipal, ApiKeyPrincipal, Principal } from '../auth/principal.js';
import type { AppEnv } from './env.js';
import { requestHeader } from './requestHeader.js';

type Ctx = Context<AppEnv>;

/** Resolves `Authorization: Bearer <token>` / `ApiKey <key>` and checks what a route needs. */
export class Guard {
  constructor(private readonly deps: { auth: AuthService; apiKeys: ApiKeyService }) {}

  /** The caller, null when anonymous; 401 when credentials are present but invalid. */
  async principal(c: Ctx): Promise<Principal | null> {
    const cached = c.get('principal');
    if (cached !== undefined) return cached;
    const header = requestHeader(c, 'authorization')?.trim() ?? '';
    let principal: Principal | null = null;
    if (header) {
      const match = /^(Bearer|ApiKey)\s+(\S+)$/i.exec(header);
      if (!match) throw AppError.unauthorized('malformed Authorization header: use "Bearer <token>" or "ApiKey <key>"');
      const [, scheme, credential] = match as unknown as [string, string, string];
      if (scheme.toLowerCase() === 'bearer') {
        principal = await this.deps.auth.verifyToken(credential);
        if (!principal) throw AppError.unauthorized('admin session expired, please log in again');
      } else {
        try {
          principal = await this.deps.apiKeys.verify(credential, c.var.clientAddress ?? 'unknown');
        } catch (error) {
          // The audit trail records every refused key, also where a page then goes on as anonymous.
          if (error instanceof AppError) c.set('credentialFailure', error.message);
          throw error;
        }
      }
    }
    c.set('principal', principal);
    return principal;
  }

  /**
   * Like principal(), but bad credentials count as anonymous (public pages viewed with a stale login),
   * and so does a client limited for sending unknown API keys: public pages keep working for it.
   */
  async optional(c: Ctx): Promise<Principal | null> {
    try {
      return await this.principal(c);
    } catch (error) {
      if (error instanceof AppError && (error.kind === 'UNAUTHORIZED' || error.kind === 'RATE_LIMITED')) {
        return null;
      }
      throw error;
    }
  }

  async authenticated(c: Ctx): Promise<Principal> {
    const principal = await this.principal(c);
    if (!principal) throw AppError.unauthorized('authentication required: send an admin token or an API key');
    return principal;
  }

  async admin(c: Ctx): Promise<AdminPrincipal> {
    const principal = await this.authenticated(c);
    if (principal.type !== 'admin') throw AppError.forbidden('this action needs the admin account');
    return principal;
  }

  async apiKey(c: Ctx): Promise<ApiKeyPrincipal> {
    const principal = await this.authenticated(c);
    if (principal.type !== 'apikey') throw AppError.unauthorized('send an API key: Authorization: ApiKey <key>');
    return principal;
  }

  /** Admin, or a key holding `bit`. */
  async permission(c: Ctx, bit: number, what: string): Promise<Principal> {
    const principal = await this.authenticated(c);
    if (principal.type === 'apikey' && !hasPermission(principal.permissions, bit)) {
      throw AppError.forbidden(`this API key lacks the ${what} permission`);
    }
    return principal;
  }
}
