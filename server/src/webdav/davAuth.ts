import { MOUNT_PERMISSIONS, Permission, hasPermission } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../security/secrets.js';
import { keyPrincipal, type ApiKeyService } from '../services/auth/apiKeyService.js';
import type { AuthService } from '../services/auth/authService.js';
import type { AdminPrincipal, Principal } from '../auth/principal.js';
import type { ApiKeyRow } from '../repositories/apiKeyRepository.js';
import type { SecretAttemptLimiter } from '../services/auth/secretAttemptLimiter.js';

/**
 * How long a verified Basic header is remembered (each password check is a scrypt). This process forgets
 * them at once when a key or the admin's password changes (`forget`); another instance sharing the database
 * may go on accepting an old credential for at most this long.
 */
export const DAV_AUTH_CACHE_MS = 10_000;
const CACHE_MAX = 1000;

type Found = { admin?: AdminPrincipal; row?: ApiKeyRow };

/** The login name of an API key (`key-<id>`, as OCS names it): its password is the key itself. */
const KEY_LOGIN = /^key-([A-Za-z0-9_-]{1,64})$/;

export const WWW_AUTHENTICATE = 'Basic realm="Clipnest", charset="UTF-8"';

function unauthorized(message: string): AppError {
  return new AppError('UNAUTHORIZED', message, { headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } });
}

/**
 * A key's WebDAV bits as the tree's mount bits: WEBDAV_READ reads, WEBDAV_MANAGE reads and writes. The
 * Vfs then applies the base path as for every other caller. Marked `locksChecked`: WebDAV checks locks itself.
 */
export function treePrincipal(principal: Principal): Principal {
  // WebDAV checks the locks of its writes itself (with the If header's tokens): the Vfs's guard must not.
  if (principal.type === 'admin') return { ...principal, locksChecked: true };
  const manage = hasPermission(principal.permissions, Permission.WEBDAV_MANAGE);
  const read = manage || hasPermission(principal.permissions, Permission.WEBDAV_READ);
  return {
    ...principal,
    permissions: manage ? MOUNT_PERMISSIONS : read ? Permission.MOUNT_VIEW : 0,
    locksChecked: true,
  };
}

/**
 * WebDAV Basic auth (spec §6): the admin's username and password, or an API key as both user and
 * password, or `key-<id>` and the key (the app passwords of Login Flow v2). Failures count in the secret-attempt limiter, in the budget of the secret guessed (the admin password's
 * with the login form, API keys' with the `ApiKey` header; per client); verified headers are
 * remembered for a few seconds by their hash (never the header itself).
 */
export class DavAuth {
  private readonly verified = new Map<string, { principal: Principal; until: number }>();
  /**
   * Checks under way, by header hash and client: the requests of a client with many connections (rclone, a
   * sync app), all arriving when the remembered header runs out, wait for one check instead of each making its
   * own. Each would count in the client's secret budget while it runs, so 100 of them answered 429.
   */
  private readonly checking = new Map<string, Promise<Principal>>();

  constructor(
    private readonly deps: {
      auth: Pick<AuthService, 'checkPassword'>;
      apiKeys: Pick<ApiKeyService, 'findKey' | 'usable'>;
      limiter: SecretAttemptLimiter;
      clock: Clock;
      /** With TOTP on, the admin password alone is refused here: WebDAV takes API keys only. */
      twoFactor?: { anyEnabled(): Promise<boolean> };
    },
  ) {}

  /** Drops every remembered credential (a key was changed or deleted, the admin's password changed). */
  forget(): void {
    this.verified.clear();
  }

  /**
   * What `authenticate` would make of an API key sent as both user and password, without using it (no
   * last_used, no limiter: only the admin asks, from the settings page).
   */
  async identifyKey(key: string): Promise<DavIdentity> {
    const row = await this.deps.apiKeys.findKey(key);
    if (!row) return { problem: 'unknown_key' };
    if (row.enabled !== 1) return { problem: 'disabled' };
    if (row.expires_at !== null && row.expires_at <= this.deps.clock.now().toISOString()) return { problem: 'expired' };
    if (
      !hasPermission(row.permissions, Permission.WEBDAV_READ) &&
      !hasPermission(row.permissions, Permission.WEBDAV_MANAGE)
    ) {
      return { problem: 'no_webdav_permission' };
    }
    return { principal: keyPrincipal(row) };
  }

  /** The caller of a request with `authorization`; 401 (with WWW-Authenticate) when missing or wrong, 429 when limited. */
  async authenticate(authorization: string | undefined, client: string): Promise<Principal> {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
    if (!match) throw unauthorized('authentication required: Basic with the admin account or an API key as both');
    const hash = sha256Hex(match[1] as string);
    const now = this.deps.clock.now().getTime();
    const hit = this.verified.get(hash);
    if (hit && hit.until > now) return hit.principal;
    const key = `${hash}\u0000${client}`;
    const under = this.checking.get(key);
    if (under) return under;
    const check = this.check(match[1] as string, hash, client, now);
    this.checking.set(key, check);
    try {
      return await check;
    } finally {
      this.checking.delete(key);
    }
  }

  private async check(basic: string, hash: string, client: string, now: number): Promise<Principal> {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw unauthorized('malformed Basic credentials');
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    // Each secret guessed counts in that secret's own budget, the one its other doors use too: a key sent as user
    // and password with the `ApiKey` header's (api_key), the admin's password with the login form's (webdav →
    // admin_password). A wrong key sent as both is a guess at both.
    let found: Found | undefined;
    // A key's own login name (`key-<id>`, what Login Flow v2 hands the apps with their app password) works too.
    const keyLogin = KEY_LOGIN.exec(user)?.[1];
    if (user === password || keyLogin !== undefined) {
      const row = await this.deps.limiter.attempt({ kind: 'api_key', client, target: '*' }, async () => {
        const key = await this.deps.apiKeys.findKey(password);
        return key && (user === password || key.id === keyLogin) ? key : undefined;
      });
      if (row) found = { row };
    }
    // Checked before any password, whatever the username, so this door tells nothing about the admin's password.
    if (!found && (await this.deps.twoFactor?.anyEnabled())) {
      throw unauthorized(
        'two-factor sign-in is on: WebDAV takes an API key (as user and password), not the admin password',
      );
    }
    found ??= await this.deps.limiter.attempt<Found | undefined>({ kind: 'webdav', client, target: '*' }, async () => {
      const admin = await this.deps.auth.checkPassword(user, password);
      return admin ? { admin } : undefined;
    });
    if (!found) throw unauthorized('invalid WebDAV credentials');
    const principal: Principal = found.admin ?? (await this.deps.apiKeys.usable(found.row as ApiKeyRow));
    if (
      principal.type === 'apikey' &&
      !hasPermission(principal.permissions, Permission.WEBDAV_READ) &&
      !hasPermission(principal.permissions, Permission.WEBDAV_MANAGE)
    ) {
      throw AppError.forbidden('this API key lacks the webdav_read permission');
    }
    if (this.verified.size >= CACHE_MAX) this.verified.clear();
    this.verified.set(hash, { principal, until: now + DAV_AUTH_CACHE_MS });
    return principal;
  }
}

/** The identity a key would have over WebDAV, or why it has none (the settings page's live check). */
export type DavIdentity =
  | { principal: Principal; problem?: undefined }
  | { principal?: undefined; problem: 'unknown_key' | 'disabled' | 'expired' | 'no_webdav_permission' };

/** 403 unless the caller may write over WebDAV (admin, or WEBDAV_MANAGE). */
export function requireManage(principal: Principal): void {
  if (principal.type === 'apikey' && !hasPermission(principal.permissions, Permission.WEBDAV_MANAGE)) {
    throw AppError.forbidden('this API key lacks the webdav_manage permission');
  }
}
