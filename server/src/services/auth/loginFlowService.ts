// Nextcloud Login Flow v2: how the Nextcloud and ownCloud apps sign in without ever seeing the admin's password.
// The app starts a flow (anonymous) and gets two secrets: a poll token it keeps, and a link it opens in a browser.
// The admin, signed in there (second factor included), approves or denies; approving makes an API key scoped to
// the tree and WebDAV (no admin rights), which the app collects once on its next poll as its app password.
import {
  API_KEY_NAME_MAX,
  LOGIN_FLOW_TTL_MS,
  MOUNT_PERMISSIONS,
  Permission,
  type LoginFlowApproval,
  type LoginFlowView,
} from '@clipnest/contract';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { LoginFlowRepository, LoginFlowRow } from '../../repositories/loginFlowRepository.js';
import type { SecretCipher } from '../../security/cipher.js';
import { randomToken, sha256Hex } from '../../security/secrets.js';
import type { ApiKeyService } from './apiKeyService.js';
import { nextcloudClientName } from './nextcloudClient.js';
import type { SecretAttemptLimiter } from './secretAttemptLimiter.js';

/** What an app password may do: the tree (view, upload, copy, rename, delete) and WebDAV; no pastes, no admin. */
export const APP_PASSWORD_PERMISSIONS = MOUNT_PERMISSIONS | Permission.WEBDAV_READ | Permission.WEBDAV_MANAGE;
/** Flows waiting for an answer at once; beyond, starting one answers 429 (anonymous requests cannot fill the table). */
export const MAX_PENDING_FLOWS = 1000;
/** …and from one client address. */
export const MAX_PENDING_FLOWS_PER_ADDRESS = 20;
/** A flow's row is kept this long after it expired: late polls of a known token are not counted as guesses. */
const KEEP_AFTER_EXPIRY_MS = 60 * 60 * 1000;
/** Login and poll tokens: 256 random bits each. */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,128}$/;

export interface StartedFlow {
  loginToken: string;
  pollToken: string;
}

export interface CollectedFlow {
  keyId: string;
  loginName: string;
  appPassword: string;
}

export class LoginFlowService {
  constructor(
    private readonly deps: {
      flows: LoginFlowRepository;
      apiKeys: Pick<ApiKeyService, 'create' | 'list'>;
      cipher: SecretCipher;
      clock: Clock;
      limiter: SecretAttemptLimiter;
    },
  ) {}

  /** Starts a flow for the app whose user agent is `userAgent`; 429 when too many wait already. */
  async start(userAgent: string | undefined, address: string): Promise<StartedFlow> {
    const { flows, clock } = this.deps;
    const now = clock.now();
    const nowIso = now.toISOString();
    // Per address first: one client cannot use up the room every other app needs to sign in.
    if (
      (await flows.countPending(nowIso, address.slice(0, 64))) >= MAX_PENDING_FLOWS_PER_ADDRESS ||
      (await flows.countPending(nowIso)) >= MAX_PENDING_FLOWS
    ) {
      throw new AppError('RATE_LIMITED', 'too many sign-ins are waiting for approval, try again in a minute', {
        headers: { 'Retry-After': '60' },
      });
    }
    const loginToken = randomToken(TOKEN_BYTES);
    const pollToken = randomToken(TOKEN_BYTES);
    const ua = (userAgent ?? '').slice(0, 512);
    await flows.insert({
      id: newId(),
      login_token_hash: sha256Hex(loginToken),
      poll_token_hash: sha256Hex(pollToken),
      status: 'pending',
      client_name: nextcloudClientName(ua).slice(0, 128),
      user_agent: ua,
      address: address.slice(0, 64),
      api_key_id: null,
      login_name: null,
      app_password_encrypted: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LOGIN_FLOW_TTL_MS).toISOString(),
    });
    return { loginToken, pollToken };
  }

  /**
   * The pending flow behind a browser link; 404 when the link is unknown, already answered or expired. Looked up
   * by the SHA-256 of the token (256 random bits): the lookup's timing tells nothing about the token.
   */
  private async pending(loginToken: string): Promise<LoginFlowRow> {
    const row = TOKEN_PATTERN.test(loginToken) ? await this.deps.flows.byLoginHash(sha256Hex(loginToken)) : undefined;
    if (!row || row.status !== 'pending' || row.expires_at <= this.deps.clock.now().toISOString()) {
      throw AppError.notFound('this sign-in link is unknown, was already used or has expired: start again in the app');
    }
    return row;
  }

  async describe(loginToken: string): Promise<LoginFlowView> {
    const row = await this.pending(loginToken);
    return {
      client_name: row.client_name,
      user_agent: row.user_agent,
      address: row.address,
      created_at: row.created_at,
      expires_at: row.expires_at,
    };
  }

  /** Lets the app in: a new API key (its app password), handed out at the app's next poll. */
  async approve(loginToken: string): Promise<LoginFlowApproval> {
    const row = await this.pending(loginToken);
    const key = await this.deps.apiKeys.create({
      name: await this.freeName(row.client_name),
      permissions: APP_PASSWORD_PERMISSIONS,
      role: 'GENERAL',
      basic_path: '/',
      is_guest: 0,
      enabled: true,
    });
    const loginName = `key-${key.id}`;
    const answered = await this.deps.flows.answer(row.id, this.deps.clock.now().toISOString(), {
      status: 'approved',
      api_key_id: key.id,
      login_name: loginName,
      app_password_encrypted: this.deps.cipher.encrypt(key.key),
    });
    if (!answered) {
      // Answered by another request meanwhile (or expired this instant): the key made here is not handed out.
      throw AppError.notFound('this sign-in link was already used or has expired: start again in the app');
    }
    return { key_id: key.id, name: key.name };
  }

  async deny(loginToken: string): Promise<void> {
    const row = await this.pending(loginToken);
    if (!(await this.deps.flows.answer(row.id, this.deps.clock.now().toISOString(), { status: 'denied' }))) {
      throw AppError.notFound('this sign-in link was already used or has expired: start again in the app');
    }
  }

  /**
   * The app's poll: the credentials once the admin approved (once only), else undefined (the app asks again).
   * A token never issued counts as a guess at an API key (the `api_key` budget of the client); a known one, even
   * spent, denied or expired, does not, so an app polling on after its flow ended is not blocked.
   */
  async poll(pollToken: string, client: string): Promise<CollectedFlow | undefined> {
    const { flows, limiter, clock, cipher } = this.deps;
    // A known token (the common case: an app asking every few seconds) costs one indexed read and no limiter write.
    const row = TOKEN_PATTERN.test(pollToken) ? await flows.byPollHash(sha256Hex(pollToken)) : undefined;
    if (!row) {
      // 429 once the client's budget is spent; 256-bit tokens leave nothing to find by guessing anyway.
      await limiter.attempt({ kind: 'api_key', client, target: '*' }, () => Promise.resolve(undefined));
      return undefined;
    }
    if (row.status !== 'approved' || row.expires_at <= clock.now().toISOString()) return undefined;
    if (!row.app_password_encrypted || !row.login_name || !row.api_key_id || !(await flows.collect(row.id)))
      return undefined;
    return {
      keyId: row.api_key_id,
      loginName: row.login_name,
      appPassword: cipher.decrypt(row.app_password_encrypted),
    };
  }

  /** Deletes flows that expired more than an hour ago. */
  sweep(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - KEEP_AFTER_EXPIRY_MS).toISOString();
    return this.deps.flows.sweep(before);
  }

  /** The app's name as a key name, made unique ("…", "… 2", "… 3"). */
  private async freeName(clientName: string): Promise<string> {
    const taken = new Set((await this.deps.apiKeys.list()).map((key) => key.name));
    const base = clientName.slice(0, API_KEY_NAME_MAX - 4).trim() || 'Nextcloud app';
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) {
      const name = `${base} ${n}`;
      if (!taken.has(name)) return name;
    }
  }
}
