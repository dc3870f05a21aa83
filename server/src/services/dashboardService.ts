import {
  DASHBOARD_DAYS,
  DASHBOARD_RECENT_LIMIT,
  DASHBOARD_TABLES,
  type DashboardActivity,
  type DashboardDay,
  type DashboardStats,
  type DashboardStorageUsage,
  type DashboardTable,
} from '@clipnest/contract';
import { isoNow, type Clock } from '../lib/clock.js';
import type { DashboardRepository } from '../repositories/dashboardRepository.js';
import type { CacheHandle } from './cacheRegistry.js';
import type { StatsService } from './statsService.js';

export interface DashboardServiceDeps {
  dashboard: DashboardRepository;
  stats: StatsService;
  clock: Clock;
  /** How long one computed answer is served from memory (default 15 s). */
  cacheTtlMs?: number;
}

/** Columns each query needs; a table lacking one is treated as absent for that query. */
const NEEDS = {
  recentPastes: { table: 'pastes', columns: ['id', 'slug', 'created_by', 'created_at'] },
  recentFiles: { table: 'files', columns: ['id', 'slug', 'filename', 'size', 'created_by', 'created_at'] },
  usage: { table: 'files', columns: ['storage_config_id', 'size'] },
  configs: { table: 'storage_configs', columns: ['id', 'name', 'storage_type', 'total_capacity', 'is_default'] },
} as const;

export class DashboardService {
  private cached: { stats: DashboardStats; at: number } | undefined;
  /** Tables and columns: they change only with migrations, so read once and kept until the cache is cleared. */
  private catalogue: Promise<Map<string, string[]>> | undefined;

  constructor(private readonly deps: DashboardServiceDeps) {}

  cacheHandle(): CacheHandle {
    return {
      pathScoped: false,
      size: () => (this.cached ? 1 : 0) + (this.catalogue ? 1 : 0),
      clear: (scope) => {
        if (scope) return 0;
        const cleared = (this.cached ? 1 : 0) + (this.catalogue ? 1 : 0);
        this.cached = undefined;
        this.catalogue = undefined;
        return cleared;
      },
    };
  }

  /** The dashboard numbers; served from a short memory cache unless `fresh`. */
  async stats(options: { fresh?: boolean } = {}): Promise<DashboardStats> {
    const now = this.deps.clock.now().getTime();
    const ttl = this.deps.cacheTtlMs ?? 15_000;
    if (!options.fresh && this.cached && now - this.cached.at < ttl) return this.cached.stats;
    const stats = await this.compute();
    this.cached = { stats, at: now };
    return stats;
  }

  private async compute(): Promise<DashboardStats> {
    const { dashboard, stats, clock } = this.deps;
    this.catalogue ??= dashboard.columns().catch((error: unknown) => {
      this.catalogue = undefined;
      throw error;
    });
    const catalogue = await this.catalogue;
    const has = (need: { table: string; columns: readonly string[] }) => {
      const columns = catalogue.get(need.table);
      return columns !== undefined && need.columns.every((c) => columns.includes(c));
    };

    const available = Object.fromEntries(DASHBOARD_TABLES.map((t) => [t, catalogue.has(t)])) as Record<
      DashboardTable,
      boolean
    >;
    const counts = Object.fromEntries(DASHBOARD_TABLES.map((t) => [t, 0])) as Record<DashboardTable, number>;
    for (const table of DASHBOARD_TABLES) {
      if (available[table]) counts[table] = await dashboard.count(table);
    }

    const days = await stats.lastDays(DASHBOARD_DAYS);
    const since = `${days[0]?.day ?? isoNow(clock).slice(0, 10)}T00:00:00.000Z`;
    const pastesPerDay = has({ table: 'pastes', columns: ['created_at'] })
      ? await dashboard.createdPerDay('pastes', since)
      : new Map<string, number>();
    const filesPerDay = has({ table: 'files', columns: ['created_at'] })
      ? await dashboard.createdPerDay('files', since)
      : new Map<string, number>();
    const daily: DashboardDay[] = days.map(({ day, values }) => ({
      day,
      paste_views: values.paste_views ?? 0,
      file_views: values.file_views ?? 0,
      file_downloads: values.file_downloads ?? 0,
      pastes_created: pastesPerDay.get(day) ?? 0,
      files_created: filesPerDay.get(day) ?? 0,
    }));

    const storage: DashboardStorageUsage[] = [];
    if (has(NEEDS.configs)) {
      const usage = has(NEEDS.usage)
        ? await dashboard.usageByConfig()
        : new Map<string, { bytes: number; files: number }>();
      for (const config of await dashboard.storageConfigs()) {
        const used = usage.get(String(config.id)) ?? { bytes: 0, files: 0 };
        const capacity = config.total_capacity === null ? null : Number(config.total_capacity);
        const hasCapacity = capacity !== null && Number.isFinite(capacity) && capacity > 0;
        storage.push({
          id: String(config.id),
          name: config.name,
          storage_type: config.storage_type,
          is_default: config.is_default === true || Number(config.is_default) === 1,
          used_bytes: used.bytes,
          file_count: used.files,
          total_capacity: hasCapacity ? capacity : null,
          usage_percent: hasCapacity ? Math.round((used.bytes / capacity) * 1000) / 10 : null,
        });
      }
    }

    const recent: DashboardActivity[] = [];
    if (has(NEEDS.recentPastes)) {
      for (const row of await dashboard.recent('pastes', DASHBOARD_RECENT_LIMIT, false)) {
        recent.push({ type: 'paste', ...activityOf(row), filename: null, size: null });
      }
    }
    if (has(NEEDS.recentFiles)) {
      for (const row of await dashboard.recent('files', DASHBOARD_RECENT_LIMIT, true)) {
        recent.push({ type: 'file', ...activityOf(row) });
      }
    }
    recent.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));

    return {
      counts,
      available,
      storage,
      daily,
      recent: recent.slice(0, DASHBOARD_RECENT_LIMIT),
      generated_at: isoNow(clock),
    };
  }
}

function activityOf(row: {
  id: string;
  slug: string;
  filename: string | null;
  size: number | string | null;
  created_by: string | null;
  created_at: string;
}) {
  return {
    id: String(row.id),
    slug: String(row.slug),
    filename: row.filename === null ? null : String(row.filename),
    size: row.size === null ? null : Number(row.size),
    created_by: row.created_by === null ? null : String(row.created_by),
    created_at: String(row.created_at),
  };
}
