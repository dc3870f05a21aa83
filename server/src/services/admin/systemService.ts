import type { HealthInfo, ReadinessInfo, StorageReadiness, VersionInfo } from '@clipnest/contract';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';

export interface SystemServiceDeps {
  version: string;
  database: 'sqlite' | 'postgres';
  ping: () => Promise<void>;
  clock: Clock;
  startedAt: number;
  /** This instance's id (readiness names it, so a load balancer's view can be matched to logs). */
  instanceId?: string;
  /** Every storage config with a cheap check (list one entry of its root); readiness runs them. */
  storages?: () => Promise<{ id: string; name: string; check: () => Promise<void> }[]>;
  /** How long one storage check may take before it counts as degraded (default 3 s). */
  storageCheckMs?: number;
}

export class SystemService {
  private stopping = false;

  constructor(private readonly deps: SystemServiceDeps) {}

  /** SIGTERM: readiness answers 503 from now on, so load balancers stop sending new requests here. */
  markStopping(): void {
    this.stopping = true;
  }

  /** The database and every storage config; never throws (the route picks the status). */
  async readiness(): Promise<ReadinessInfo> {
    const database = await this.deps.ping().then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
    const limit = this.deps.storageCheckMs ?? 3000;
    let storages: StorageReadiness[] = [];
    if (database === 'ok' && this.deps.storages) {
      const list = await this.deps.storages().catch(() => []);
      storages = await Promise.all(
        list.map(async ({ id, name, check }) => {
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              check(),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
              }),
            ]);
            return { id, name, status: 'ok' as const };
          } catch (error) {
            return {
              id,
              name,
              status: 'degraded' as const,
              error: error instanceof Error ? error.message : String(error),
            };
          } finally {
            clearTimeout(timer);
          }
        }),
      );
    }
    const status =
      database !== 'ok' || this.stopping ? 'unavailable' : storages.some((s) => s.status !== 'ok') ? 'degraded' : 'ok';
    return {
      status,
      database,
      stopping: this.stopping,
      instance: this.deps.instanceId ?? '',
      storages,
      time: this.deps.clock.now().toISOString(),
    };
  }

  version(): VersionInfo {
    return { name: 'clipnest', version: this.deps.version, node: process.version, database: this.deps.database };
  }

  async health(): Promise<HealthInfo> {
    try {
      await this.deps.ping();
    } catch {
      throw new AppError('UNAVAILABLE', 'the database is not reachable');
    }
    const now = this.deps.clock.now();
    return {
      status: 'ok',
      database: 'ok',
      uptime_seconds: Math.round((now.getTime() - this.deps.startedAt) / 1000),
      time: now.toISOString(),
    };
  }
}
