import type { AdminSessionView, AdminTokenTestResult, LoginResult } from '@clipnest/contract';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { AdminRepository } from '../../repositories/adminRepository.js';
import type { AdminTokenRepository } from '../../repositories/adminTokenRepository.js';
import { burnPasswordCheck, hashPassword, randomToken, sha256Hex, verifyPassword } from '../../security/secrets.js';
import type { AuthEventSink } from './authEvents.js';
import type { PasskeyService, RelyingParty } from './passkeyService.js';
import type { AdminPrincipal } from '../../auth/principal.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';
import type { TwoFactorService } from './twoFactorService.js';
import { describeUserAgent } from './userAgent.js';

export interface AuthServiceDeps {
  admins: AdminRepository;
  tokens: AdminTokenRepository;
  limiter: SecretAttemptLimiter;
  clock: Clock;
  tokenTtlMs: number;
  events: AuthEventSink;
  /** Set once both exist (they need confirmPassword from here): see `attachSecondFactors`. */
  twoFactor?: TwoFactorService;
  passkeys?: PasskeyService;
}

/** Where a sign-in comes from: recorded on the session the account page lists. */
export interface SignInContext {
  client: string;
  userAgent: string | undefined;
  /** Needed for a passkey; PUBLIC_URL or the request's host (http/relyingParty.ts). */
  rp?: RelyingParty;
}

type Method = 'password' | 'totp' | 'recovery_code' | 'passkey';

/** A session's last use is written at most this often (a read per request, a write per minute). */
export const SESSION_TOUCH_MS = 60_000;

export class AuthService {
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly deps: AuthServiceDeps) {}

  /** Called after the admin's name or password changed (e.g. so WebDAV forgets the credentials it verified). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Creates the first admin when none exists. Returns the credentials when it did. */
  async ensureAdmin(
    username: string | undefined,
    password: string | undefined,
  ): Promise<{ username: string; password: string; generated: boolean } | null> {
    if ((await this.deps.admins.count()) > 0) return null;
    const name = username ?? 'admin';
    const secret = password ?? randomToken(12);
    const now = isoNow(this.deps.clock);
    await this.deps.admins.insert({
      id: newId(),
      username: name,
      password_hash: await hashPassword(secret),
      created_at: now,
      updated_at: now,
    });
    return { username: name, password: secret, generated: password === undefined };
  }

  attachSecondFactors(twoFactor: TwoFactorService, passkeys: PasskeyService): void {
    this.deps.twoFactor = twoFactor;
    this.deps.passkeys = passkeys;
  }

  /**
   * The password, then the second factor when TOTP is on: a code (TOTP or recovery) in `totp`, or a passkey
   * assertion. Without one: 401 `totp_required` (its data lists the methods) and no token.
   */
  async login(
    input: {
      username: string;
      password: string;
      totp?: string;
      passkey?: { challenge_id: string; response: Record<string, unknown> };
    },
    ctx: SignInContext,
  ): Promise<LoginResult> {
    const { admins, limiter, events } = this.deps;
    const { username, password } = input;
    const client = ctx.client;
    const admin = await limiter.attempt({ kind: 'login', client, target: username.toLowerCase() }, async () => {
      const found = await admins.findByUsername(username);
      // An unknown username costs a hash too, so timing does not tell which usernames exist.
      if (!found) return void (await burnPasswordCheck(password));
      return (await verifyPassword(password, found.password_hash)) ? found : undefined;
    });
    if (!admin) {
      events({ type: 'auth.login.failed', username, client, reason: 'password' });
      throw AppError.unauthorized('invalid username or password');
    }
    let method: Method = 'password';
    const required = await this.deps.twoFactor?.required(admin.id);
    if (required) {
      try {
        if (input.passkey && this.deps.passkeys && ctx.rp) {
          await this.deps.passkeys.verifyAssertion(input.passkey, ctx.rp, client, {
            adminId: admin.id,
            requireUserVerification: false,
          });
          method = 'passkey';
        } else if (input.totp) {
          const checked = await this.deps.twoFactor?.check(admin.id, input.totp, client);
          if (!checked) throw new AppError('TOTP_WRONG', 'the code is wrong or was already used');
          method = checked;
        } else {
          events({ type: 'auth.login.failed', username, client, reason: 'second_factor_missing' });
          throw new AppError('TOTP_REQUIRED', 'two-factor sign-in is on: send a code from the authenticator app', {
            data: required,
          });
        }
      } catch (error) {
        if (error instanceof AppError && error.kind === 'TOTP_WRONG') {
          const reason = input.passkey ? 'passkey_wrong' : 'second_factor_wrong';
          events({ type: 'auth.login.failed', username, client, reason });
        }
        throw error;
      }
    }
    return this.startSession(admin, method, ctx);
  }

  /** A passkey instead of the password: the authenticator must have verified its user (PIN, biometrics). */
  async loginWithPasskey(
    input: { challenge_id: string; response: Record<string, unknown> },
    ctx: SignInContext & { rp: RelyingParty },
  ): Promise<LoginResult> {
    if (!this.deps.passkeys) throw AppError.forbidden('passkeys are not available');
    let adminId: string;
    try {
      adminId = await this.deps.passkeys.verifyAssertion(input, ctx.rp, ctx.client, { requireUserVerification: true });
    } catch (error) {
      if (error instanceof AppError && error.kind === 'TOTP_WRONG') {
        this.deps.events({ type: 'auth.login.failed', username: '', client: ctx.client, reason: 'passkey_wrong' });
      }
      throw error;
    }
    const admin = await this.deps.admins.findById(adminId);
    if (!admin) throw new AppError('TOTP_WRONG', 'the passkey was not accepted: try again or use a code');
    return this.startSession(admin, 'passkey', ctx);
  }

  private async startSession(
    admin: { id: string; username: string },
    method: Method,
    ctx: SignInContext,
  ): Promise<LoginResult> {
    const { tokens, clock } = this.deps;
    const token = randomToken(32);
    const now = isoNow(clock);
    const expiresAt = new Date(clock.now().getTime() + this.deps.tokenTtlMs).toISOString();
    const id = newId();
    await tokens.insert({
      token_hash: sha256Hex(token),
      admin_id: admin.id,
      created_at: now,
      expires_at: expiresAt,
      id,
      user_agent: ctx.userAgent?.slice(0, 512) ?? null,
      address: ctx.client.slice(0, 64),
      auth_method: method,
      last_used_at: now,
    });
    this.deps.events({
      type: 'auth.login.succeeded',
      adminId: admin.id,
      username: admin.username,
      client: ctx.client,
      method,
      sessionId: id,
    });
    return { token, username: admin.username, expires_at: expiresAt };
  }

  /** 401 `password_wrong` unless `password` is the admin's; counted as a login attempt. */
  async confirmPassword(adminId: string, password: string, client: string): Promise<void> {
    const admin = await this.deps.admins.findById(adminId);
    const right = admin
      ? await this.deps.limiter.attempt({ kind: 'login', client, target: admin.username.toLowerCase() }, () =>
          verifyPassword(password, admin.password_hash),
        )
      : false;
    if (!right) throw new AppError('PASSWORD_WRONG', 'the password is wrong');
  }

  /**
   * The admin when `username` and `password` are right (WebDAV Basic); undefined otherwise. No limiter:
   * the caller counts the attempt (the `webdav` kind).
   */
  async checkPassword(username: string, password: string): Promise<AdminPrincipal | undefined> {
    const found = await this.deps.admins.findByUsername(username);
    if (!found) return void (await burnPasswordCheck(password));
    if (!(await verifyPassword(password, found.password_hash))) return undefined;
    return { type: 'admin', adminId: found.id, username: found.username, tokenHash: '', expiresAt: '', sessionId: '' };
  }

  /** The admin with this id (a task resumed by another instance acts as the admin who started it). */
  async principalById(adminId: string): Promise<AdminPrincipal | undefined> {
    const found = await this.deps.admins.findById(adminId);
    return (
      found && {
        type: 'admin',
        adminId: found.id,
        username: found.username,
        tokenHash: '',
        expiresAt: '',
        sessionId: '',
      }
    );
  }

  /** The admin behind a bearer token, or null when the token is unknown, revoked or expired. */
  async verifyToken(token: string): Promise<AdminPrincipal | null> {
    const tokenHash = sha256Hex(token);
    const now = this.deps.clock.now();
    const row = await this.deps.tokens.findValid(tokenHash, now.toISOString());
    if (!row) return null;
    const stale = new Date(now.getTime() - SESSION_TOUCH_MS).toISOString();
    if (row.last_used_at === null || row.last_used_at < stale) {
      await this.deps.tokens.touch(tokenHash, now.toISOString(), stale);
    }
    return {
      type: 'admin',
      adminId: row.admin_id,
      username: row.username,
      tokenHash,
      expiresAt: row.expires_at,
      sessionId: row.id ?? '',
    };
  }

  /** The admin's sign-ins that have not expired, this one marked `current`. */
  async sessions(principal: AdminPrincipal): Promise<AdminSessionView[]> {
    const rows = await this.deps.tokens.listValid(principal.adminId, isoNow(this.deps.clock));
    return rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: row.id as string,
        ...describeUserAgent(row.user_agent),
        user_agent: row.user_agent,
        address: row.address,
        auth_method:
          (['password', 'totp', 'recovery_code', 'passkey'] as const).find((m) => m === row.auth_method) ?? null,
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        expires_at: row.expires_at,
        current: row.token_hash === principal.tokenHash,
      }));
  }

  /** Ends one sign-in at once (its token answers 401 on its next request, on every instance). */
  async endSession(principal: AdminPrincipal, id: string, client: string): Promise<void> {
    if (!(await this.deps.tokens.deleteById(principal.adminId, id))) throw AppError.notFound('no such session');
    this.deps.events({
      type: 'auth.session.ended',
      adminId: principal.adminId,
      client,
      sessionIds: [id],
      reason: 'revoked',
    });
  }

  /** Ends every sign-in but the caller's; answers how many ended. */
  async endOtherSessions(principal: AdminPrincipal, client: string): Promise<number> {
    const others = (await this.deps.tokens.listValid(principal.adminId, isoNow(this.deps.clock)))
      .filter((row) => row.token_hash !== principal.tokenHash)
      .map((row) => row.id ?? '');
    const ended = await this.deps.tokens.deleteAllOfExcept(principal.adminId, principal.tokenHash);
    this.deps.events({
      type: 'auth.session.ended',
      adminId: principal.adminId,
      client,
      sessionIds: others,
      reason: 'revoked',
    });
    return ended;
  }

  describeToken(principal: AdminPrincipal): AdminTokenTestResult {
    return { valid: true, username: principal.username, expires_at: principal.expiresAt };
  }

  async logout(principal: AdminPrincipal): Promise<void> {
    await this.deps.tokens.delete(principal.tokenHash);
  }

  async changeCredentials(
    principal: AdminPrincipal,
    input: { currentPassword: string; newPassword?: string; newUsername?: string },
    client: string,
  ): Promise<{ username: string }> {
    const { admins, tokens, limiter, clock } = this.deps;
    const admin = await admins.findById(principal.adminId);
    const current = admin
      ? await limiter.attempt({ kind: 'login', client, target: admin.username.toLowerCase() }, () =>
          verifyPassword(input.currentPassword, admin.password_hash),
        )
      : false;
    if (!admin || !current) throw AppError.unauthorized('the current password is wrong');
    if (input.newUsername !== undefined && input.newUsername !== admin.username) {
      const other = await admins.findByUsername(input.newUsername);
      if (other && other.id !== admin.id) throw AppError.conflict(`the username "${input.newUsername}" is taken`);
    }
    const changes: { username?: string; password_hash?: string; updated_at: string } = { updated_at: isoNow(clock) };
    if (input.newUsername !== undefined) changes.username = input.newUsername;
    if (input.newPassword !== undefined) changes.password_hash = await hashPassword(input.newPassword);
    await admins.update(admin.id, changes);
    // Every other sign-in ends; the one that made the change goes on.
    await tokens.deleteAllOfExcept(admin.id, principal.tokenHash);
    this.deps.events({
      type: 'auth.session.ended',
      adminId: admin.id,
      client,
      sessionIds: [],
      reason: 'password_changed',
    });
    for (const listener of this.changeListeners) listener();
    return { username: changes.username ?? admin.username };
  }

  sweepExpiredTokens(): Promise<number> {
    return this.deps.tokens.deleteExpired(isoNow(this.deps.clock));
  }
}
