import { randomBase64url } from '../../../lib/ids.js';
import type { AuditEntry, AuditLogFilter, AuditOutcome } from '@clipnest/contract';
import type { Clock } from '../../../lib/clock.js';
import { scrubSecrets, type Logger } from '../../../lib/logger.js';
import type { AuditLogRepository, AuditRow } from '../../../repositories/auditLogRepository.js';
import type { Principal } from '../../../auth/principal.js';
import type { SettingsService } from '../settingsService.js';

/** What a caller records; everything but `action` has a default. */
export interface AuditInput {
  /** `paste.delete`, `auth.login.failed`, `auth.2fa.enable`, … */
  action: string;
  /** Who acted: a principal, or null/undefined for `anonymous`. */
  principal?: Principal | null;
  /** What was touched: ids, slugs, paths. Never a secret. */
  target?: string | null;
  /** The HTTP status the request ended with (200 when not given); the outcome follows from it. */
  status?: number;
  client?: string | null;
  requestId?: string | null;
  /** A short reason (a refusal's message). */
  detail?: string | null;
}

/** The actor columns of a principal: `admin:<name>`, `apikey:<id>` (with the key's name), `anonymous`. */
export function actorOf(principal: Principal | null | undefined): { actor: string; actor_name: string | null } {
  if (!principal) return { actor: 'anonymous', actor_name: null };
  if (principal.type === 'admin') return { actor: `admin:${principal.username}`, actor_name: null };
  return { actor: `apikey:${principal.keyId}`, actor_name: principal.name };
}

export function outcomeOf(status: number): AuditOutcome {
  if (status >= 500) return 'error';
  if (status === 401 || status === 403 || status === 429) return 'denied';
  if (status >= 400) return 'failure';
  return 'success';
}

/**
 * Text every database stores: NUL (PostgreSQL refuses it in text) and lone UTF-16 surrogates become U+FFFD. A
 * request can carry either in its path; one such entry must not hold up the log.
 */
export function storable(value: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is what is looked for
  return value.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** A database's refusal of the data itself (PostgreSQL classes 22 and 23), not of the connection. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

function clip(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  const scrubbed = storable(scrubSecrets(value));
  return scrubbed.length > max ? `${scrubbed.slice(0, max - 1)}…` : scrubbed;
}

export interface AuditLogDeps {
  repo: AuditLogRepository;
  settings: Pick<SettingsService, 'get'>;
  clock: Clock;
  logger: Logger;
  /** Entries waiting beyond this are dropped (and counted in an `audit.dropped` entry): memory stays bounded. */
  maxQueue?: number;
  /** How long an entry may wait for its batch. */
  flushDelayMs?: number;
}

const BATCH = 500;
const EXPORT_PAGE = 500;
const SWEEP_CHUNK = 5000;
const DAY_MS = 86_400_000;

/**
 * The audit log. `record` only queues the entry (no I/O on the request's path); batches are written shortly after
 * (or when a batch is full), and `close` writes what is left. Reads write pending entries first, so a page shows
 * what was just done.
 */
export class AuditLog {
  private queue: AuditRow[] = [];
  private dropped = 0;
  /** Entries the database refused (a data error), to be put on record. */
  private refused = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDelay = 0;
  private writing: Promise<void> = Promise.resolve();
  private seq = 0;
  private closed = false;

  constructor(private readonly deps: AuditLogDeps) {}

  private get maxQueue(): number {
    return this.deps.maxQueue ?? 10_000;
  }

  /** An id that sorts by time (then by order within this process). */
  private newId(now: number): string {
    this.seq = (this.seq + 1) % 36 ** 4;
    return `${now.toString(36).padStart(9, '0')}${this.seq.toString(36).padStart(4, '0')}${randomBase64url(6)}`;
  }

  /** Queues an entry; never throws, never waits. */
  record(input: AuditInput): void {
    if (this.queue.length >= this.maxQueue) {
      this.dropped++;
      return;
    }
    this.queue.push(this.row(input));
    if (this.closed) return;
    if (this.queue.length >= BATCH) this.schedule(0);
    else this.schedule(this.deps.flushDelayMs ?? 1000);
  }

  private row(input: AuditInput): AuditRow {
    const now = this.deps.clock.now();
    const status = input.status ?? 200;
    return {
      id: this.newId(now.getTime()),
      at: now.toISOString(),
      ...actorOf(input.principal),
      action: storable(input.action.slice(0, 64)),
      target: clip(input.target, 1024),
      outcome: outcomeOf(status),
      status,
      client: input.client ? storable(input.client.slice(0, 64)) : null,
      request_id: input.requestId ? storable(input.requestId.slice(0, 128)) : null,
      detail: clip(input.detail, 512),
    };
  }

  /** An entry could not even be made (a bug, a setting unreadable): logged, the request goes on. */
  failed(error: unknown): void {
    this.deps.logger.error('audit log: an entry could not be recorded', error);
  }

  /** Entries waiting to be written (tests, metrics). */
  get pending(): number {
    return this.queue.length;
  }

  private schedule(delayMs: number): void {
    if (this.timer && (delayMs > 0 || this.timerDelay === 0)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDelay = delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  /** Writes every queued entry (one write at a time; a failed batch is logged and retried with the next). */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.dropped > 0) {
        const count = this.dropped;
        this.dropped = 0;
        // Past the bound on purpose: the gap itself must be on record.
        this.queue.push(
          this.row({ action: 'audit.dropped', status: 503, detail: `${count} entries dropped: the queue was full` }),
        );
      }
      if (this.refused > 0) {
        const count = this.refused;
        this.refused = 0;
        this.queue.push(
          this.row({
            action: 'audit.dropped',
            status: 500,
            detail: `${count} entries dropped: the database refused them`,
          }),
        );
      }
      while (this.queue.length > 0) {
        const batch = this.queue.slice(0, BATCH);
        try {
          await this.deps.repo.insertMany(batch);
          this.queue.splice(0, batch.length);
        } catch (error) {
          if (isDataError(error)) {
            // One entry the database refuses: the others are written one by one, that one is counted as dropped.
            this.queue.splice(0, batch.length);
            for (const row of batch) {
              await this.deps.repo.insertMany([row]).catch((refused: unknown) => {
                this.refused++;
                this.deps.logger.error('audit log: an entry the database refuses was dropped', refused);
              });
            }
            continue;
          }
          this.deps.logger.error('audit log: a batch could not be written; it is kept for the next try', error);
          if (!this.closed) this.schedule(5000);
          return;
        }
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Whether views (paste and share reads) are recorded too (the `audit_log_views` setting). */
  async viewsAudited(): Promise<boolean> {
    return this.deps.settings.get('audit_log_views');
  }

  async list(filter: AuditLogFilter, limit: number, offset: number): Promise<{ items: AuditEntry[]; total: number }> {
    await this.flush();
    const { rows, total } = await this.deps.repo.list(filter, limit, offset);
    return { items: rows as AuditEntry[], total };
  }

  /** Every entry of the filtered log, newest first, read a page at a time. */
  async *entries(filter: AuditLogFilter): AsyncGenerator<AuditEntry[]> {
    await this.flush();
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const rows = await this.deps.repo.pageAfter(filter, after, EXPORT_PAGE);
      if (rows.length === 0) return;
      yield rows as AuditEntry[];
      if (rows.length < EXPORT_PAGE) return;
      const last = rows[rows.length - 1] as AuditRow;
      after = { at: last.at, id: last.id };
    }
  }

  /** Removes entries older than the retention setting (0 keeps them all); answers how many went. */
  async sweep(): Promise<number> {
    const days = await this.deps.settings.get('audit_log_retention_days');
    if (!days || days <= 0) return 0;
    const before = new Date(this.deps.clock.now().getTime() - days * DAY_MS).toISOString();
    let removed = 0;
    for (;;) {
      const n = await this.deps.repo.deleteOlderThan(before, SWEEP_CHUNK);
      removed += n;
      if (n < SWEEP_CHUNK) break;
    }
    if (removed > 0) this.deps.logger.info(`audit log: removed ${removed} entries older than ${days} days`);
    return removed;
  }
}
