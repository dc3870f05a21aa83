import { isIP } from 'node:net';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { SECRET_DOORS, type BlockedAddressView, type SecretDoor } from '@clipnest/contract';
import type {
  AttemptOutcome,
  BlockedRow,
  BlockInfo,
  ReserveRequest,
  ReserveResult,
} from '../../repositories/secretAttemptRepository.js';
import { sha256Hex } from '../../security/secrets.js';

/** What a secret protects; each kind has its own policy and buckets. */
export type SecretKind = 'login' | 'second_factor' | 'paste' | 'file' | 'api_key' | 'webdav';

export interface SecretAttempt {
  kind: SecretKind;
  /** The client's address (`c.var.clientAddress`). */
  client: string;
  /** What the secret unlocks (a paste or file id, a username); ignored by kinds counted per client. */
  target: string;
}

export interface SecretPolicy {
  /**
   * The secret the kind guesses at. Kinds of one budget count in the same buckets: a secret has one budget of
   * guesses per window whatever the door (the admin password: the login form, a password change, WebDAV Basic).
   * Kinds sharing a budget must agree on `per`, `maxFailures` and `windowMs`.
   */
  budget: 'admin_password' | 'admin_second_factor' | 'api_key' | 'paste' | 'file';
  /** Wrong secrets allowed in one window; the next attempt answers 429. */
  maxFailures: number;
  windowMs: number;
  /** 'target': one bucket per client and target; 'client': one per client, whatever the target. */
  per: 'target' | 'client';
  /** A right secret clears the bucket's failures (only where the right secret proves the caller is the owner). */
  resetOnSuccess: boolean;
  /** The 429 message, given the seconds to wait. */
  message: (retryAfter: number) => string;
}

/** The counters, shared by every instance (the database's `secret_attempts`). */
export interface AttemptStore {
  reserve(request: ReserveRequest): Promise<ReserveResult>;
  settle(
    bucket: string,
    outcome: AttemptOutcome,
    now: string,
    newWindowEndsAt: string,
    block?: BlockInfo,
  ): Promise<void>;
  sweep(now: string, staleBefore: string): Promise<number>;
  blocked(now: string): Promise<BlockedRow[]>;
  clear(bucket: string): Promise<boolean>;
}

const MINUTE = 60_000;
const wrongPassword = (s: number) => `too many wrong passwords, try again in ${s} seconds`;

/**
 * One policy for every secret: 10 wrong within 15 minutes, the 11th attempt answers 429. The budget is the
 * secret's, not the door's: WebDAV Basic with the admin's name counts with the login form (`admin_password`), an API
 * key sent as WebDAV user and password counts with the `ApiKey` header (`api_key`).
 */
export const DEFAULT_POLICIES: Record<SecretKind, SecretPolicy> = {
  // One admin account: per client whatever the username (random usernames must not buy guesses).
  login: {
    budget: 'admin_password',
    maxFailures: 10,
    windowMs: 15 * MINUTE,
    per: 'client',
    resetOnSuccess: true,
    message: (s) => `too many failed logins, try again in ${s} seconds`,
  },
  // The admin's second factor (TOTP codes, recovery codes, passkeys) is a secret of its own with its own budget:
  // guessing codes must not cost the password's budget, nor a right password clear the codes' failures.
  second_factor: {
    budget: 'admin_second_factor',
    maxFailures: 10,
    windowMs: 15 * MINUTE,
    per: 'client',
    resetOnSuccess: true,
    message: (s) => `too many wrong codes, try again in ${s} seconds`,
  },
  paste: {
    budget: 'paste',
    maxFailures: 10,
    windowMs: 15 * MINUTE,
    per: 'target',
    resetOnSuccess: true,
    message: wrongPassword,
  },
  file: {
    budget: 'file',
    maxFailures: 10,
    windowMs: 15 * MINUTE,
    per: 'target',
    resetOnSuccess: true,
    message: wrongPassword,
  },
  // Any key is a target: a client guessing keys is counted whatever key it tries, and holding one
  // (a guest key) must not clear the count, so a right key only gives its slot back.
  api_key: {
    budget: 'api_key',
    maxFailures: 10,
    windowMs: 15 * MINUTE,
    per: 'client',
    resetOnSuccess: false,
    message: (s) => `too many invalid API keys from this address, try again in ${s} seconds`,
  },
  // The admin password through WebDAV Basic (a key sent as both is counted as `api_key` first).
  webdav: {
    budget: 'admin_password',
    maxFailures: 10,
    windowMs: 15 * MINUTE,
    per: 'client',
    resetOnSuccess: false,
    message: (s) => `too many failed WebDAV logins, try again in ${s} seconds`,
  },
};

const DOORS = new Set<string>(SECRET_DOORS);

/** A check still running after this is taken as lost (its process died) and stops holding a slot. */
const PENDING_STALE_MS = 60_000;
/** How long a check waits for the checks in flight before it (they decide whether it may run). */
const MAX_WAIT_MS = 15_000;
/** Waiting checks look again this often, for checks running on other instances. */
const POLL_MS = 100;

/**
 * The bucket a client address counts in: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, since
 * one host is given a whole /64 and can pick any address in it.
 */
export function clientBucketOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The 429: the policy's message and when the block ends (ISO, in the message and in `data.until`, with
 * `data.retry_after` in seconds and the Retry-After header).
 */
function tooMany(policy: SecretPolicy, retryAfter: number, until: string): AppError {
  return new AppError('RATE_LIMITED', `${policy.message(retryAfter)} (blocked until ${until})`, {
    headers: { 'Retry-After': String(retryAfter) },
    data: { retry_after: retryAfter, until },
  });
}

/**
 * One limiter for every secret check (login, paste and file-share passwords, API keys, WebDAV Basic).
 *
 * A check first takes a slot in its bucket, atomically, before the (slow) secret check runs: while
 * failures plus checks in flight reach the limit, later checks wait for those in flight, so N guesses
 * sent at once are judged exactly as N sent one after the other (a right one after ten wrong is refused
 * too). A wrong secret keeps its slot as a failure; a right one gives it back (and may clear the bucket).
 * Buckets are per client (and per target where the policy says so), in a window that opens with the
 * first attempt and ends `windowMs` later: the owner is never locked out for good, and a limited client
 * never blocks the right secret from another client.
 */
export class SecretAttemptLimiter {
  private readonly policies: Record<SecretKind, SecretPolicy>;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly deps: {
      store: AttemptStore;
      clock: Clock;
      logger?: Logger;
      policies?: Partial<Record<SecretKind, Partial<SecretPolicy>>>;
    },
  ) {
    const merged = { ...DEFAULT_POLICIES };
    for (const [kind, policy] of Object.entries(deps.policies ?? {}) as [SecretKind, Partial<SecretPolicy>][]) {
      merged[kind] = { ...DEFAULT_POLICIES[kind], ...policy };
    }
    this.policies = merged;
  }

  policyOf(kind: SecretKind): SecretPolicy {
    return this.policies[kind];
  }

  bucketOf(attempt: SecretAttempt): string {
    const policy = this.policies[attempt.kind];
    const target = policy.per === 'target' ? attempt.target : '*';
    return sha256Hex(`${policy.budget}\u0000${clientBucketOf(attempt.client)}\u0000${target}`);
  }

  /**
   * Runs `check` once the attempt may be made and answers its result: something truthy (true, the row
   * the secret opens) when the secret is right, falsy when wrong. Throws 429 with Retry-After when the
   * bucket is full. A check that throws counts as nothing.
   */
  async attempt<T>(attempt: SecretAttempt, check: () => Promise<T>): Promise<T> {
    const policy = this.policies[attempt.kind];
    const bucket = this.bucketOf(attempt);
    await this.reserve(bucket, policy);
    let outcome: AttemptOutcome = 'void';
    try {
      const result = await check();
      outcome = result ? (policy.resetOnSuccess ? 'reset' : 'success') : 'failure';
      return result;
    } finally {
      const block = { limit: policy.maxFailures, client: clientBucketOf(attempt.client), door: attempt.kind };
      await this.settle(bucket, policy, outcome, block);
    }
  }

  /** The clients blocked now, at any door (the admin's list). */
  async blocked(): Promise<BlockedAddressView[]> {
    const rows: BlockedRow[] = await this.deps.store.blocked(this.deps.clock.now().toISOString());
    return rows.map((row) => ({
      id: row.bucket,
      address: row.client,
      door: (DOORS.has(row.door) ? row.door : 'login') as SecretDoor,
      since: row.blocked_at,
      until: row.window_ends_at,
      failures: row.failures,
    }));
  }

  /** The admin lets a blocked client try again at once (its bucket starts over); 404 when it is not blocked. */
  async unblock(id: string): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(id) || !(await this.deps.store.clear(id))) {
      throw AppError.notFound('this address is not blocked (any more)');
    }
  }

  private times(policy: SecretPolicy) {
    const now = this.deps.clock.now().getTime();
    return {
      nowMs: now,
      now: new Date(now).toISOString(),
      newWindowEndsAt: new Date(now + policy.windowMs).toISOString(),
      staleBefore: new Date(now - PENDING_STALE_MS).toISOString(),
    };
  }

  private async reserve(bucket: string, policy: SecretPolicy): Promise<void> {
    const started = Date.now();
    for (;;) {
      const t = this.times(policy);
      const result = await this.deps.store.reserve({ bucket, limit: policy.maxFailures, ...t });
      if (result.granted) return;
      if (result.failures >= policy.maxFailures) {
        const ends = Date.parse(result.windowEndsAt);
        throw tooMany(policy, Math.max(1, Math.ceil((ends - t.nowMs) / 1000)), new Date(ends).toISOString());
      }
      // Full only of checks in flight: their outcome decides whether this one may run.
      if (Date.now() - started > MAX_WAIT_MS) throw tooMany(policy, 1, new Date(t.nowMs + 1000).toISOString());
      await this.waitForSettle(bucket);
    }
  }

  private async settle(bucket: string, policy: SecretPolicy, outcome: AttemptOutcome, block: BlockInfo): Promise<void> {
    const t = this.times(policy);
    try {
      await this.deps.store.settle(bucket, outcome, t.now, t.newWindowEndsAt, block);
    } catch (error) {
      // The slot goes stale on its own; the caller still gets the check's answer.
      this.deps.logger?.error('secret attempt limiter: settling failed', error);
    } finally {
      const waiting = this.waiters.get(bucket);
      this.waiters.delete(bucket);
      for (const wake of waiting ?? []) wake();
    }
  }

  private waitForSettle(bucket: string): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(bucket);
      if (!set) this.waiters.set(bucket, (set = new Set()));
      const waiters = set;
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (waiters.size === 0 && this.waiters.get(bucket) === waiters) this.waiters.delete(bucket);
        resolve();
      };
      const timer = setTimeout(wake, POLL_MS);
      waiters.add(wake);
    });
  }

  /** Drops buckets whose window ended (run periodically). */
  sweep(): Promise<number> {
    const now = this.deps.clock.now().getTime();
    return this.deps.store.sweep(new Date(now).toISOString(), new Date(now - PENDING_STALE_MS).toISOString());
  }
}
