import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.js';
import type { StatsRepository } from '../../repositories/statsRepository.js';
import { StatsService } from './statsService.js';

describe('StatsService', () => {
  it('zero-fills the last days, oldest first', async () => {
    const rows = [
      { day: '2026-11-20', metric: 'paste_views', value: 4 },
      { day: '2026-11-22', metric: 'file_views', value: 2 },
    ];
    const repo = { since: async () => rows, increment: async () => undefined } as unknown as StatsRepository;
    const service = new StatsService({
      stats: repo,
      clock: { now: () => new Date('2026-11-22T10:00:00Z') },
      logger: createLogger('silent'),
    });
    const days = await service.lastDays(3);
    expect(days).toEqual([
      { day: '2026-11-20', values: { paste_views: 4 } },
      { day: '2026-11-21', values: {} },
      { day: '2026-11-22', values: { file_views: 2 } },
    ]);
  });
});

describe('StatsService buffering', () => {
  it('adds up increments in memory and writes one statement per day and metric on flush', async () => {
    const writes: Array<[string, string, number]> = [];
    const repo = {
      since: async () => writes.map(([day, metric, value]) => ({ day, metric, value })),
      increment: async (day: string, metric: string, by: number) => {
        writes.push([day, metric, by]);
      },
    } as unknown as StatsRepository;
    const service = new StatsService({
      stats: repo,
      clock: { now: () => new Date('2026-11-22T10:00:00Z') },
      logger: createLogger('silent'),
    });
    for (let i = 0; i < 5; i++) service.record('paste_views');
    service.record('file_views');
    expect(writes).toEqual([]);
    const days = await service.lastDays(1);
    expect(writes).toEqual([
      ['2026-11-22', 'paste_views', 5],
      ['2026-11-22', 'file_views', 1],
    ]);
    expect(days).toEqual([{ day: '2026-11-22', values: { paste_views: 5, file_views: 1 } }]);
    await service.flush();
    expect(writes).toHaveLength(2);
  });
});
