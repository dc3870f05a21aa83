import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { StatsRepository } from '../../repositories/statsRepository.js';

export type StatMetric = 'paste_views' | 'file_views' | 'file_downloads';

/** How long counts wait in memory before one write per (day, metric) stores them. */
export const STATS_FLUSH_INTERVAL_MS = 2000;

/**
 * Daily counters behind the dashboard chart. Counting never fails or slows the request it counts:
 * increments collect in memory and are written in one statement per (day, metric) every few seconds,
 * so a hot share costs no extra database write per view. Reads include what is still pending.
 */
export class StatsService {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { stats: StatsRepository; clock: Clock; logger: Logger }) {}

  record(metric: StatMetric): void {
    const key = `${this.deps.clock.now().toISOString().slice(0, 10)}|${metric}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), STATS_FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Writes pending counts now (also called on shutdown and by tests). Failed writes are logged, not retried. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [key, count] of batch) {
        const [day = '', metric = ''] = key.split('|');
        await this.deps.stats
          .increment(day, metric, count)
          .catch((error: unknown) => this.deps.logger.error(`stats: ${metric}`, error));
      }
    });
    return this.flushing;
  }

  /** The last `days` days (oldest first) with each metric's value, zero-filled. */
  async lastDays(days: number): Promise<{ day: string; values: Record<string, number> }[]> {
    await this.flush();
    const today = this.deps.clock.now();
    const list = Array.from({ length: days }, (_, i) => {
      const d = new Date(today.getTime() - (days - 1 - i) * 86_400_000);
      return d.toISOString().slice(0, 10);
    });
    const rows = await this.deps.stats.since(list[0] ?? '');
    return list.map((day) => ({
      day,
      values: Object.fromEntries(rows.filter((r) => r.day === day).map((r) => [r.metric, Number(r.value)])),
    }));
  }
}
