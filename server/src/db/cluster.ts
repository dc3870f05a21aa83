// What several instances on one database agree through (docs/deployment.md):
// - `exclusive(name, fn)`: fn runs on one instance at a time. PostgreSQL: a session advisory lock
//   (pg_try_advisory_lock) held on one pooled connection while fn runs; an instance that cannot take it skips.
//   SQLite (one instance by design): an in-process guard.
// - `runDue(name, everyMs, fn)`: exclusive, and (PostgreSQL) fn runs only when no instance ran it in the last
//   `everyMs` (job_runs, 0017): a periodic job runs once per period across the cluster.
// - `publish` / `subscribe`: cache invalidations. PostgreSQL: NOTIFY on a channel of the schema, LISTENed on a
//   dedicated connection (re-opened when it drops); SQLite: delivered in-process only.
import { sql } from 'kysely';
import type pgTypes from 'pg';
import { pg } from '../lib/optionalModules.js';
import { newId } from '../lib/ids.js';
import type { Logger } from '../lib/logger.js';
import type { DatabaseHandle } from './database.js';

/** Something another instance must drop from its caches. */
export type ClusterEvent =
  | { kind: 'settings' }
  | { kind: 'mounts'; mountId?: string }
  | { kind: 'storage-configs'; id?: string }
  | { kind: 'listing'; mountId: string; path: string; toPath?: string };

type Handler = (event: ClusterEvent) => void;

/** NOTIFY payloads are limited to 8000 bytes; longer paths just drop the whole mount's listings. */
const MAX_PAYLOAD = 7000;

export class Cluster {
  /** Identifies this process (task runners, job_runs, log lines). */
  readonly instanceId = newId();
  private readonly held = new Map<string, Promise<unknown>>();
  private readonly handlers = new Set<Handler>();
  private listener: pgTypes.Client | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly channel: string;

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      /** The PostgreSQL URL, for the LISTEN connection (unused on SQLite). */
      url?: string;
      logger: Logger;
    },
  ) {
    this.channel = `clipnest_${(deps.database.schema ?? 'public').replace(/[^a-zA-Z0-9_]/g, '_')}`.slice(0, 63);
  }

  get postgres(): boolean {
    return this.deps.database.dialect === 'postgres';
  }

  /** Starts listening for other instances' events (PostgreSQL). */
  async start(): Promise<void> {
    if (!this.postgres || !this.deps.url || this.closed) return;
    const client = new (pg().Client)({
      connectionString: this.deps.url,
      ...(this.deps.database.schema ? { options: `-c search_path=${this.deps.database.schema}` } : {}),
    });
    const retry = () => {
      if (this.closed || this.reconnect) return;
      this.listener = undefined;
      // Whatever was notified while disconnected is lost: drop every cache once connected again.
      this.reconnect = setTimeout(() => {
        this.reconnect = undefined;
        void this.start()
          .then(() => this.deliver({ kind: 'settings' }, { kind: 'mounts' }, { kind: 'storage-configs' }))
          .catch(() => retry());
      }, 1000);
      this.reconnect.unref();
    };
    client.on('error', (error) => {
      this.deps.logger.error('cluster: the LISTEN connection failed; reconnecting', error.message);
      void client.end().catch(() => undefined);
      retry();
    });
    client.on('end', () => {
      // Ended without an error (the server restarted it): listen again.
      if (this.listener === client) retry();
    });
    client.on('notification', (message) => {
      if (!message.payload) return;
      try {
        const parsed = JSON.parse(message.payload) as { from: string; event: ClusterEvent };
        if (parsed.from !== this.instanceId) this.deliver(parsed.event);
      } catch {
        // Not ours.
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      this.listener = client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Tells the other instances (never this one: it already acted) about a change. */
  async publish(event: ClusterEvent): Promise<void> {
    if (!this.postgres || this.closed) return;
    let payload = JSON.stringify({ from: this.instanceId, event });
    if (payload.length > MAX_PAYLOAD && event.kind === 'listing')
      payload = JSON.stringify({ from: this.instanceId, event: { kind: 'mounts', mountId: event.mountId } });
    try {
      await sql`select pg_notify(${this.channel}, ${payload})`.execute(this.deps.database.db);
    } catch (error) {
      this.deps.logger.error('cluster: NOTIFY failed (other instances catch up within their cache TTL)', error);
    }
  }

  /** publish without waiting (callers on a request path). */
  notify(event: ClusterEvent): void {
    void this.publish(event);
  }

  private deliver(...events: ClusterEvent[]): void {
    for (const event of events)
      for (const handler of this.handlers) {
        try {
          handler(event);
        } catch (error) {
          this.deps.logger.error('cluster: an event handler failed', error);
        }
      }
  }

  /**
   * Runs fn when no instance (this one included) runs the job `name` now; answers undefined when skipped.
   * `waitHere`: when this process runs it now, wait for that run to end and then try (explicit calls).
   */
  async exclusive<T>(name: string, fn: () => Promise<T>, options: { waitHere?: boolean } = {}): Promise<T | undefined> {
    for (let running = this.held.get(name); running; running = this.held.get(name)) {
      if (!options.waitHere) return undefined;
      await running.catch(() => undefined);
    }
    const run = this.runLocked(name, fn);
    this.held.set(name, run);
    try {
      return await run;
    } finally {
      this.held.delete(name);
    }
  }

  private async runLocked<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
    if (!this.postgres) return fn();
    const key = `${this.deps.database.schema ?? 'public'}:${name}`;
    return this.deps.database.db.connection().execute(async (conn) => {
      const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as ok`.execute(conn);
      if (!got.rows[0]?.ok) return undefined;
      try {
        return await fn();
      } finally {
        await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
      }
    });
  }

  /**
   * Runs the periodic job `name` when no instance ran it in the last `everyMs` (and none runs it now); answers
   * whether it ran here.
   */
  async runDue(name: string, everyMs: number, now: Date, fn: () => Promise<void>): Promise<boolean> {
    const { db } = this.deps.database;
    // SQLite: one instance, the caller's own timer is the schedule.
    if (!this.postgres) return (await this.exclusive(name, async () => (await fn(), true))) === true;
    const ran = await this.exclusive(name, async () => {
      const last = await db.selectFrom('job_runs').select('last_run_at').where('name', '=', name).executeTakeFirst();
      if (last && now.getTime() - new Date(last.last_run_at).getTime() < everyMs) return false;
      await fn();
      const at = now.toISOString();
      await db
        .insertInto('job_runs')
        .values({ name, last_run_at: at, last_instance: this.instanceId, runs: 1 })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({
            last_run_at: at,
            last_instance: this.instanceId,
            runs: eb('job_runs.runs', '+', 1),
          })),
        )
        .execute();
      return true;
    });
    return ran === true;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }
}
