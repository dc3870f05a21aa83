import {
  RECOVERY_CODE_COUNT,
  type RecoveryCodesResult,
  type SecondFactorRequired,
  type TotpSetupResult,
  type TwoFactorStatus,
} from '@clipnest/contract';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { SecondFactorRepository } from '../../repositories/secondFactorRepository.js';
import type { SecretCipher } from '../../security/cipher.js';
import { looksLikeRecoveryCode, newRecoveryCode, recoveryCodeHash } from '../../security/recoveryCodes.js';
import { newTotpSecret, totpCodeStep, totpUri } from '../../security/totp.js';
import type { AuthEventSink } from './authEvents.js';
import type { AdminPrincipal } from '../../auth/principal.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';

export type SecondFactorMethod = 'totp' | 'recovery_code';

/** 401 `totp_wrong`: the code was wrong, of another step long gone, or already used. */
export function wrongSecondFactor(message = 'the code is wrong or was already used'): AppError {
  return new AppError('TOTP_WRONG', message);
}

/**
 * TOTP for the admin: setup hands out a secret (kept encrypted, pending), enable confirms it with a code and the
 * password and answers ten single-use recovery codes (stored as hashes), disable needs a code. Codes are checked
 * with one step of drift either way and never accepted twice (the last accepted step is kept); wrong codes count
 * in the limiter's `second_factor` budget.
 */
export class TwoFactorService {
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly deps: {
      repo: SecondFactorRepository;
      cipher: SecretCipher;
      clock: Clock;
      limiter: SecretAttemptLimiter;
      /** The issuer an authenticator app shows (the site's title). */
      issuer: () => Promise<string>;
      /** 401 `password_wrong` unless `password` is the admin's (counted as a login attempt). */
      confirmPassword: (adminId: string, password: string, client: string) => Promise<void>;
      passkeyCount: (adminId: string) => Promise<number>;
      events: AuthEventSink;
    },
  ) {}

  /** Called when TOTP is turned on or off (WebDAV forgets the admin credentials it verified). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  async status(adminId: string): Promise<TwoFactorStatus> {
    const row = await this.deps.repo.find(adminId);
    const enabled = Boolean(row?.totp_secret_encrypted);
    return {
      totp_enabled: enabled,
      totp_enabled_at: enabled ? (row?.totp_enabled_at ?? null) : null,
      recovery_codes_left: enabled ? await this.deps.repo.unusedRecoveryCodes(adminId) : 0,
      passkeys: await this.deps.passkeyCount(adminId),
    };
  }

  /** Whether a sign-in with the admin's password needs a second factor, and which ones it may give. */
  async required(adminId: string): Promise<SecondFactorRequired | null> {
    const row = await this.deps.repo.find(adminId);
    if (!row?.totp_secret_encrypted) return null;
    const methods: SecondFactorRequired['methods'] = ['totp', 'recovery_code'];
    if ((await this.deps.passkeyCount(adminId)) > 0) methods.push('passkey');
    return { methods };
  }

  /** Whether any admin has TOTP on: WebDAV then takes API keys only. */
  anyEnabled(): Promise<boolean> {
    return this.deps.repo.anyEnabled();
  }

  async setup(principal: AdminPrincipal): Promise<TotpSetupResult> {
    const row = await this.deps.repo.find(principal.adminId);
    if (row?.totp_secret_encrypted) {
      throw AppError.conflict('two-factor sign-in is already on: turn it off first to set up a new authenticator');
    }
    const secret = newTotpSecret();
    await this.deps.repo.savePending(principal.adminId, this.deps.cipher.encrypt(secret), isoNow(this.deps.clock));
    return { secret, otpauth_url: totpUri(secret, await this.deps.issuer(), principal.username) };
  }

  async enable(
    principal: AdminPrincipal,
    input: { code: string; password: string },
    client: string,
  ): Promise<RecoveryCodesResult> {
    const { repo, cipher, clock, limiter } = this.deps;
    await this.deps.confirmPassword(principal.adminId, input.password, client);
    const row = await repo.find(principal.adminId);
    if (row?.totp_secret_encrypted) throw AppError.conflict('two-factor sign-in is already on');
    const pending = row?.totp_pending_encrypted;
    if (!pending) throw AppError.conflict('no authenticator is being set up: call /api/admin/2fa/setup first');
    const step = await limiter.attempt({ kind: 'second_factor', client, target: principal.adminId }, async () =>
      totpCodeStep(cipher.decrypt(pending), input.code, clock.now().getTime()),
    );
    if (step === null) throw wrongSecondFactor('the code is wrong: check the time of the device that shows it');
    const codes = this.newCodes();
    const enabled = await repo.enable(principal.adminId, pending, step, isoNow(clock), codes.rows);
    if (!enabled) throw AppError.conflict('the authenticator was set up again meanwhile: scan the new code');
    this.changed(principal.adminId, client, 'totp_enabled');
    return { recovery_codes: codes.plain };
  }

  async disable(principal: AdminPrincipal, code: string, client: string): Promise<void> {
    await this.requireEnabled(principal.adminId);
    const method = await this.check(principal.adminId, code, client);
    if (!method) throw wrongSecondFactor();
    await this.deps.repo.disable(principal.adminId);
    this.changed(principal.adminId, client, 'totp_disabled');
  }

  /** New recovery codes (the old ones stop working), for a current code or an unused recovery code. */
  async renewRecoveryCodes(principal: AdminPrincipal, code: string, client: string): Promise<RecoveryCodesResult> {
    await this.requireEnabled(principal.adminId);
    if (!(await this.check(principal.adminId, code, client))) throw wrongSecondFactor();
    const codes = this.newCodes();
    await this.deps.repo.replaceRecoveryCodes(principal.adminId, isoNow(this.deps.clock), codes.rows);
    this.deps.events({
      type: 'auth.second_factor.changed',
      adminId: principal.adminId,
      client,
      change: 'recovery_codes_renewed',
    });
    return { recovery_codes: codes.plain };
  }

  /**
   * Checks a second factor through the limiter: a TOTP code of this step or the next to it that is later than the
   * last accepted one (and then takes its step), or an unused recovery code (and then spends it). Answers the
   * method, or undefined when wrong.
   */
  async check(adminId: string, code: string, client: string): Promise<SecondFactorMethod | undefined> {
    const { repo, cipher, clock, limiter } = this.deps;
    return limiter.attempt({ kind: 'second_factor', client, target: adminId }, async () => {
      const row = await repo.find(adminId);
      const secret = row?.totp_secret_encrypted;
      if (!secret) return undefined;
      const now = clock.now();
      if (looksLikeRecoveryCode(code)) {
        return (await repo.useRecoveryCode(adminId, recoveryCodeHash(code), now.toISOString()))
          ? 'recovery_code'
          : undefined;
      }
      const step = totpCodeStep(cipher.decrypt(secret), code, now.getTime());
      if (step === null) return undefined;
      return (await repo.claimStep(adminId, step, now.toISOString())) ? 'totp' : undefined;
    });
  }

  private async requireEnabled(adminId: string): Promise<void> {
    const row = await this.deps.repo.find(adminId);
    if (!row?.totp_secret_encrypted) throw AppError.conflict('two-factor sign-in is off');
  }

  private newCodes() {
    const plain = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    return { plain, rows: plain.map((code) => ({ id: newId(), code_hash: recoveryCodeHash(code) })) };
  }

  private changed(adminId: string, client: string, change: 'totp_enabled' | 'totp_disabled'): void {
    this.deps.events({ type: 'auth.second_factor.changed', adminId, client, change });
    for (const listener of this.changeListeners) listener();
  }
}
