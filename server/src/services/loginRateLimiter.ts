import type { Clock } from '../lib/clock.js';

interface Window {
  failures: number[];
}

/**
 * Counts failed logins per client and username in a sliding window.
 * In memory on purpose: it protects one process; a shared store is only needed when scaling out.
 */
export class LoginRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    private readonly maxFailures = 5,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  private key(client: string, username: string): string {
    return `${client}\u0000${username.toLowerCase()}`;
  }

  private recent(key: string): number[] {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (!window) return [];
    window.failures = window.failures.filter((t) => now - t < this.windowMs);
    if (window.failures.length === 0) this.windows.delete(key);
    return window.failures;
  }

  /** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
  retryAfterSeconds(client: string, username: string): number {
    const failures = this.recent(this.key(client, username));
    if (failures.length < this.maxFailures) return 0;
    const oldest = failures[failures.length - this.maxFailures] ?? 0;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.clock.now().getTime()) / 1000));
  }

  recordFailure(client: string, username: string): void {
    const key = this.key(client, username);
    const failures = this.recent(key);
    failures.push(this.clock.now().getTime());
    this.windows.set(key, { failures });
    if (this.windows.size > 10_000) this.prune();
  }

  reset(client: string, username: string): void {
    this.windows.delete(this.key(client, username));
  }

  private prune(): void {
    for (const key of [...this.windows.keys()]) this.recent(key);
  }
}
