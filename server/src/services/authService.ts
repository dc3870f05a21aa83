import type { AdminTokenTestResult, LoginResult } from '@clipnest/contract';
import { AppError } from '../errors.js';
import { isoNow, type Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { AdminRepository } from '../repositories/adminRepository.js';
import type { AdminTokenRepository } from '../repositories/adminTokenRepository.js';
import { burnPasswordCheck, hashPassword, randomToken, sha256Hex, verifyPassword } from '../security/secrets.js';
import type { AdminPrincipal } from './principal.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';

export interface AuthServiceDeps {
  admins: AdminRepository;
  tokens: AdminTokenRepository;
  limiter: SecretAttemptLimiter;
  clock: Clock;
  tokenTtlMs: number;
}

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

  async login(username: string, password: string, client: string): Promise<LoginResult> {
    const { admins, tokens, limiter, clock } = this.deps;
    const admin = await limiter.attempt({ kind: 'login', client, target: username.toLowerCase() }, async () => {
      const found = await admins.findByUsername(username);
      // An unknown username costs a hash too, so timing does not tell which usernames exist.
      if (!found) return void (await burnPasswordCheck(password));
      return (await verifyPassword(password, found.password_hash)) ? found : undefined;
    });
    if (!admin) throw AppError.unauthorized('invalid username or password');
    const token = randomToken(32);
    const expiresAt = new Date(clock.now().getTime() + this.deps.tokenTtlMs).toISOString();
    await tokens.insert({
      token_hash: sha256Hex(token),
      admin_id: admin.id,
      created_at: isoNow(clock),
      expires_at: expiresAt,
    });
    return { token, username: admin.username, expires_at: expiresAt };
  }

  /**
   * The admin when `username` and `password` are right (WebDAV Basic); undefined otherwise. No limiter:
   * the caller counts the attempt (the `webdav` kind).
   */
  async checkPassword(username: string, password: string): Promise<AdminPrincipal | undefined> {
    const found = await this.deps.admins.findByUsername(username);
    if (!found) return void (await burnPasswordCheck(password));
    if (!(await verifyPassword(password, found.password_hash))) return undefined;
    return { type: 'admin', adminId: found.id, username: found.username, tokenHash: '', expiresAt: '' };
  }

  /** The admin with this id (a task resumed by another instance acts as the admin who started it). */
  async principalById(adminId: string): Promise<AdminPrincipal | undefined> {
    const found = await this.deps.admins.findById(adminId);
    return found && { type: 'admin', adminId: found.id, username: found.username, tokenHash: '', expiresAt: '' };
  }

  /** The admin behind a bearer token, or null when the token is unknown, revoked or expired. */
  async verifyToken(token: string): Promise<AdminPrincipal | null> {
    const tokenHash = sha256Hex(token);
    const row = await this.deps.tokens.findValid(tokenHash, isoNow(this.deps.clock));
    if (!row) return null;
    return { type: 'admin', adminId: row.admin_id, username: row.username, tokenHash, expiresAt: row.expires_at };
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
    await tokens.deleteAllOf(admin.id);
    for (const listener of this.changeListeners) listener();
    return { username: changes.username ?? admin.username };
  }

  sweepExpiredTokens(): Promise<number> {
    return this.deps.tokens.deleteExpired(isoNow(this.deps.clock));
  }
}
