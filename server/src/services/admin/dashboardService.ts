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
import { isoNow, type Clock } from '../../lib/clock.js';
import type { DashboardRepository } from '../../repositories/dashboardRepository.js';
import type { CacheHandle } from './cacheRegistry.js';
import type { StatsService } from './statsService.js';

export interface DashboardServiceDeps {
  dashboard: DashboardRepository;
  stats: StatsService;
  clock: Clock;
  /** How long one computed answer is served from memory (default 15 s). */
  cacheTtlMs?: number;
}

export class DashboardService {
  private cached: { stats: DashboardStats; at: number } | undefined;

  constructor(private readonly deps: DashboardServiceDeps) {}

  cacheHandle(): CacheHandle {
    return {
      pathScoped: false,
      size: () => (this.cached ? 1 : 0),
      clear: (scope) => {
        if (scope) return 0;
        const cleared = this.cached ? 1 : 0;
        this.cached = undefined;
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

  private async nameCreators(items: DashboardActivity[]): Promise<void> {
    const refs = items.map((item) => creatorRef(item.created_by));
    const names = await this.deps.dashboard.creatorNames(
      [...new Set(refs.flatMap((r) => (r.admin ? [r.admin] : [])))],
      [...new Set(refs.flatMap((r) => (r.key ? [r.key] : [])))],
    );
    items.forEach((item, i) => {
      const ref = refs[i] ?? {};
      item.created_by_name =
        (ref.admin ? names.admins.get(ref.admin) : ref.key ? names.keys.get(ref.key) : null) ?? null;
    });
  }

  /**
   * Every query is a primary-key lookup on a counter table (db/counters.ts), the storage config list,
   * or `ORDER BY created_at DESC LIMIT` on an index: nothing here grows with the number of shares.
   */
  private async compute(): Promise<DashboardStats> {
    const { dashboard, stats, clock } = this.deps;
    // A table is available once its migration registered its row counter (mounts: not yet built).
    const tracked = await dashboard.rowCounts(DASHBOARD_TABLES);
    const available = Object.fromEntries(DASHBOARD_TABLES.map((t) => [t, tracked.has(t)])) as Record<
      DashboardTable,
      boolean
    >;
    const counts = Object.fromEntries(DASHBOARD_TABLES.map((t) => [t, tracked.get(t) ?? 0])) as Record<
      DashboardTable,
      number
    >;

    const days = await stats.lastDays(DASHBOARD_DAYS);
    const created = await dashboard.createdPerDay(['pastes', 'files'], days[0]?.day ?? isoNow(clock).slice(0, 10));
    const daily: DashboardDay[] = days.map(({ day, values }) => ({
      day,
      paste_views: values.paste_views ?? 0,
      file_views: values.file_views ?? 0,
      file_downloads: values.file_downloads ?? 0,
      pastes_created: created.get('pastes')?.get(day) ?? 0,
      files_created: created.get('files')?.get(day) ?? 0,
    }));

    const storage: DashboardStorageUsage[] = [];
    if (available.storage_configs) {
      for (const config of await dashboard.storageUsage()) {
        const used = { bytes: Number(config.bytes ?? 0), files: Number(config.files ?? 0) };
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
    if (available.pastes) {
      for (const row of await dashboard.recent('pastes', DASHBOARD_RECENT_LIMIT, false)) {
        recent.push({ type: 'paste', ...activityOf(row), filename: null, size: null });
      }
    }
    if (available.files) {
      for (const row of await dashboard.recent('files', DASHBOARD_RECENT_LIMIT, true)) {
        recent.push({ type: 'file', ...activityOf(row) });
      }
    }
    recent.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    const shown = recent.slice(0, DASHBOARD_RECENT_LIMIT);
    await this.nameCreators(shown);

    return {
      counts,
      available,
      storage,
      daily,
      recent: shown,
      shares: await dashboard.shareSummary(DASHBOARD_RECENT_LIMIT),
      generated_at: isoNow(clock),
    };
  }
}

/** `created_by` holds an admin id or `apikey:<id>` (spec §3); the dashboard shows the name behind it. */
function creatorRef(createdBy: string | null): { admin?: string; key?: string } {
  if (!createdBy) return {};
  return createdBy.startsWith('apikey:') ? { key: createdBy.slice('apikey:'.length) } : { admin: createdBy };
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
    created_by_name: null,
    created_at: String(row.created_at),
  };
}
