import { describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import type { StatsRepository } from '../repositories/statsRepository.js';
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
