import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { Cluster } from './cluster.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './database.js';

describe('Cluster on SQLite (one instance: in-process guards)', () => {
  let database: DatabaseHandle;
  let cluster: Cluster;
  beforeEach(async () => {
    database = openDatabase('sqlite::memory:');
    await migrateToLatest(database);
    cluster = new Cluster({ database, logger: createLogger('silent') });
    await cluster.start();
  });
  afterEach(async () => {
    await cluster.close();
    await database.close();
  });

  it('skips a job this process runs already, or waits for it when asked', async () => {
    let release!: () => void;
    const first = cluster.exclusive('job', () => new Promise<string>((resolve) => (release = () => resolve('first'))));
    expect(await cluster.exclusive('job', async () => 'second')).toBeUndefined();
    const waiting = cluster.exclusive('job', async () => 'third', { waitHere: true });
    expect(await cluster.exclusive('other', async () => 'other')).toBe('other');
    release();
    expect(await first).toBe('first');
    expect(await waiting).toBe('third');
  });

  it('runs a periodic job whenever its own timer says (no job_runs bookkeeping), and never twice at once', async () => {
    let runs = 0;
    const job = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const now = new Date();
    const [one, two] = await Promise.all([
      cluster.runDue('sweep', 60_000, now, job),
      cluster.runDue('sweep', 60_000, now, job),
    ]);
    expect([one, two].filter(Boolean)).toHaveLength(1);
    expect(await cluster.runDue('sweep', 60_000, now, job)).toBe(true);
    expect(runs).toBe(2);
  });

  it('publishing is a no-op without PostgreSQL (nothing else to tell)', async () => {
    const seen: unknown[] = [];
    cluster.subscribe((event) => seen.push(event));
    await cluster.publish({ kind: 'settings' });
    expect(seen).toEqual([]);
  });
});
