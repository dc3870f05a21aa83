import type { PasskeyOptionsResult, PasskeyView } from '@clipnest/contract';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { onFirstUse } from '../../lib/optionalModules.js';
import type { PasskeyRepository, PasskeyRow } from '../../repositories/passkeyRepository.js';
import type { AuthEventSink } from './authEvents.js';
import type { AdminPrincipal } from '../../auth/principal.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';
import { wrongSecondFactor } from './twoFactorService.js';

const webauthn = onFirstUse(() => import('@simplewebauthn/server'));

/** The rpID and origin passkeys are bound to (http/relyingParty.ts). */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

/** A challenge lives this long: time enough to touch a security key or unlock a phone. */
const CHALLENGE_TTL_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;
/**
 * Sign-in challenges are asked for without credentials; past this many waiting at once (far beyond one admin's
 * use) new ones are refused for a minute instead of letting anonymous requests fill the table.
 */
const MAX_LIVE_LOGIN_CHALLENGES = 1000;

function view(row: PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    backed_up: Number(row.backed_up) === 1,
  };
}

function transportsOf(row: PasskeyRow): string[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The admin's passkeys (WebAuthn): registered from the account page with the password, used as the second factor
 * after the password or, with user verification (PIN, fingerprint), instead of it. Challenges are single use and
 * kept in the database, so any instance can finish what another began.
 */
export class PasskeyService {
  constructor(
    private readonly deps: {
      repo: PasskeyRepository;
      clock: Clock;
      limiter: SecretAttemptLimiter;
      rpName: () => Promise<string>;
      confirmPassword: (adminId: string, password: string, client: string) => Promise<void>;
      events: AuthEventSink;
      logger?: Logger;
    },
  ) {}

  async list(principal: AdminPrincipal): Promise<PasskeyView[]> {
    return (await this.deps.repo.listOf(principal.adminId)).map(view);
  }

  count(adminId: string): Promise<number> {
    return this.deps.repo.countOf(adminId);
  }

  async registrationOptions(
    principal: AdminPrincipal,
    password: string,
    rp: RelyingParty,
    client: string,
  ): Promise<PasskeyOptionsResult> {
    await this.deps.confirmPassword(principal.adminId, password, client);
    const existing = await this.deps.repo.listOf(principal.adminId);
    if (existing.length >= MAX_PASSKEYS) throw AppError.conflict(`at most ${MAX_PASSKEYS} passkeys: remove one first`);
    const { generateRegistrationOptions } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: await this.deps.rpName(),
      rpID: rp.rpID,
      userName: principal.username,
      userID: new TextEncoder().encode(principal.adminId),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const challengeId = await this.saveChallenge(principal.adminId, 'register', options.challenge);
    return { challenge_id: challengeId, options: options as unknown as Record<string, unknown> };
  }

  async register(
    principal: AdminPrincipal,
    input: { challenge_id: string; name: string; response: Record<string, unknown> },
    rp: RelyingParty,
    client: string,
  ): Promise<PasskeyView> {
    const taken = await this.deps.repo.takeChallenge(input.challenge_id, 'register', isoNow(this.deps.clock));
    if (!taken || taken.admin_id !== principal.adminId) {
      throw AppError.validation('the passkey request expired or was already used: start again');
    }
    let result;
    try {
      const { verifyRegistrationResponse } = await webauthn();
      result = await verifyRegistrationResponse({
        response: input.response as unknown as RegistrationResponseJSON,
        expectedChallenge: taken.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      });
    } catch (error) {
      throw AppError.validation(
        `the passkey could not be checked: ${error instanceof Error ? error.message : 'invalid'}`,
      );
    }
    if (!result.verified) throw AppError.validation('the passkey could not be verified');
    const info = result.registrationInfo;
    if (await this.deps.repo.findByCredentialId(info.credential.id)) {
      throw AppError.conflict('this passkey is registered already');
    }
    const row: PasskeyRow = {
      id: newId(),
      admin_id: principal.adminId,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? []),
      name: input.name,
      device_type: info.credentialDeviceType,
      backed_up: info.credentialBackedUp ? 1 : 0,
      created_at: isoNow(this.deps.clock),
      last_used_at: null,
    };
    await this.deps.repo.insert(row);
    this.deps.events({
      type: 'auth.second_factor.changed',
      adminId: principal.adminId,
      client,
      change: 'passkey_added',
      target: row.id,
    });
    return view(row);
  }

  async rename(principal: AdminPrincipal, id: string, name: string, client: string): Promise<PasskeyView> {
    if (!(await this.deps.repo.rename(principal.adminId, id, name))) throw AppError.notFound('no such passkey');
    this.deps.events({
      type: 'auth.second_factor.changed',
      adminId: principal.adminId,
      client,
      change: 'passkey_renamed',
      target: id,
    });
    const row = (await this.deps.repo.listOf(principal.adminId)).find((r) => r.id === id);
    if (!row) throw AppError.notFound('no such passkey');
    return view(row);
  }

  async remove(principal: AdminPrincipal, id: string, client: string): Promise<void> {
    if (!(await this.deps.repo.delete(principal.adminId, id))) throw AppError.notFound('no such passkey');
    this.deps.events({
      type: 'auth.second_factor.changed',
      adminId: principal.adminId,
      client,
      change: 'passkey_removed',
      target: id,
    });
  }

  /** Options for a sign-in with a passkey (any of the admin's: the authenticator offers the ones it holds). */
  async authenticationOptions(rp: RelyingParty): Promise<PasskeyOptionsResult> {
    const now = isoNow(this.deps.clock);
    if ((await this.deps.repo.liveChallenges('login', now)) >= MAX_LIVE_LOGIN_CHALLENGES) {
      await this.deps.repo.sweepChallenges(now);
      if ((await this.deps.repo.liveChallenges('login', now)) >= MAX_LIVE_LOGIN_CHALLENGES) {
        throw new AppError('RATE_LIMITED', 'too many passkey sign-ins in progress, try again in a minute', {
          headers: { 'Retry-After': '60' },
          data: { retry_after: 60 },
        });
      }
    }
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'preferred' });
    const challengeId = await this.saveChallenge(null, 'login', options.challenge);
    return { challenge_id: challengeId, options: options as unknown as Record<string, unknown> };
  }

  /**
   * The admin a passkey assertion signs in, checked through the limiter's `second_factor` budget; 401 `totp_wrong`
   * when it is not one of `adminId`'s (when given) or does not verify. Instead of the password (`requireUserVerification`)
   * the authenticator must have checked its user (PIN, biometrics).
   */
  async verifyAssertion(
    input: { challenge_id: string; response: Record<string, unknown> },
    rp: RelyingParty,
    client: string,
    options: { adminId?: string; requireUserVerification: boolean },
  ): Promise<string> {
    const { repo, clock, limiter } = this.deps;
    const adminId = await limiter.attempt(
      { kind: 'second_factor', client, target: options.adminId ?? '*' },
      async () => {
        const taken = await repo.takeChallenge(input.challenge_id, 'login', isoNow(clock));
        if (!taken) return undefined;
        const response = input.response as unknown as AuthenticationResponseJSON;
        const row = await repo.findByCredentialId(response.id);
        if (!row || (options.adminId !== undefined && row.admin_id !== options.adminId)) return undefined;
        try {
          const { verifyAuthenticationResponse } = await webauthn();
          const result = await verifyAuthenticationResponse({
            response,
            expectedChallenge: taken.challenge,
            expectedOrigin: rp.origin,
            expectedRPID: rp.rpID,
            credential: {
              id: row.credential_id,
              publicKey: Buffer.from(row.public_key, 'base64url'),
              counter: Number(row.counter),
              transports: transportsOf(row),
            },
            requireUserVerification: options.requireUserVerification,
          });
          if (!result.verified) return undefined;
          await repo.used(row.id, result.authenticationInfo.newCounter, isoNow(clock));
          return row.admin_id;
        } catch (error) {
          this.deps.logger?.debug(`passkey assertion refused: ${error instanceof Error ? error.message : 'invalid'}`);
          return undefined;
        }
      },
    );
    if (!adminId) throw wrongSecondFactor('the passkey was not accepted: try again or use a code');
    return adminId;
  }

  sweep(): Promise<number> {
    return this.deps.repo.sweepChallenges(isoNow(this.deps.clock));
  }

  private async saveChallenge(adminId: string | null, purpose: string, challenge: string): Promise<string> {
    const id = newId();
    const expires = new Date(this.deps.clock.now().getTime() + CHALLENGE_TTL_MS).toISOString();
    await this.deps.repo.saveChallenge({ id, admin_id: adminId, purpose, challenge, expires_at: expires });
    return id;
  }
}
