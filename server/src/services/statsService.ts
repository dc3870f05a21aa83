import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { StatsRepository } from '../repositories/statsRepository.js';

export type StatMetric = 'paste_views' | 'file_views' | 'file_downloads';

/** Daily counters behind the dashboard chart. Counting never fails the request it counts. */
export class StatsService {
  constructor(private readonly deps: { stats: StatsRepository; clock: Clock; logger: Logger }) {}

  record(metric: StatMetric): void {
    const day = this.deps.clock.now().toISOString().slice(0, 10);
    this.deps.stats.increment(day, metric).catch((error: unknown) => this.deps.logger.error(`stats: ${metric}`, error));
  }

  /** The last `days` days (oldest first) with each metric's value, zero-filled. */
  async lastDays(days: number): Promise<{ day: string; values: Record<string, number> }[]> {
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
