import type { HealthInfo, VersionInfo } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';

export interface SystemServiceDeps {
  version: string;
  database: 'sqlite' | 'postgres';
  ping: () => Promise<void>;
  clock: Clock;
  startedAt: number;
}

export class SystemService {
  constructor(private readonly deps: SystemServiceDeps) {}

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
