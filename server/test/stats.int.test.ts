import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatsRepository } from '../src/repositories/statsRepository.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';

describe.each(dbTargets)('daily stats on %s', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts concurrent increments exactly', async () => {
    const repo = new StatsRepository(server.built.database.db);
    await Promise.all(Array.from({ length: 50 }, () => repo.increment('2026-01-01', 'paste_views')));
    const rows = await repo.since('2026-01-01');
    expect(rows.find((r) => r.day === '2026-01-01' && r.metric === 'paste_views')?.value).toBe(50);
  });
});
