import type { DashboardStats } from '@clipnest/contract';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

/**
 * The pastes/files/mounts/storage_configs tables belong to other features; this test creates
 * tables of the documented shape (with the created_at / storage_config_id indexes those features add).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables not in this worktree's schema
async function createFeatureTables(db: Kysely<any>) {
  await sql`create table storage_configs (id varchar(32) primary key, name varchar(100) not null,
    storage_type varchar(16) not null, total_capacity bigint, is_default integer not null default 0)`.execute(db);
  await sql`create table mounts (id varchar(32) primary key, name varchar(50) not null)`.execute(db);
  await sql`create table pastes (id varchar(32) primary key, slug varchar(64) not null unique, views integer not null default 0,
    max_views integer, expires_at varchar(32), created_by varchar(64), created_at varchar(32) not null)`.execute(db);
  await sql`create index pastes_created_at_idx on pastes (created_at)`.execute(db);
  await sql`create table files (id varchar(32) primary key, slug varchar(64) not null unique, filename varchar(255) not null,
    size bigint not null, storage_config_id varchar(32), views integer not null default 0, created_by varchar(64),
    created_at varchar(32) not null)`.execute(db);
  await sql`create index files_created_at_idx on files (created_at)`.execute(db);
  await sql`create index files_storage_config_idx on files (storage_config_id, size)`.execute(db);
}

function daysAgo(n: number, hour = 12): string {
  const d = new Date(Date.now() - n * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
}

describe.each(dbTargets)('dashboard on %s', (target) => {
  let server: TestServer;
  let token: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;

  const stats = async () => {
    const res = await server.call<DashboardStats>('GET', '/api/admin/dashboard/stats?fresh=1', { token });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    return res.body.data!;
  };

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    db = server.built.database.db;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports zero for features not installed yet', async () => {
    await server.call('POST', '/api/admin/api-keys', { token, body: { name: 'one', permissions: 1 } });
    const data = await stats();
    expect(data.counts).toEqual({ pastes: 0, files: 0, api_keys: 1, mounts: 0, storage_configs: 0 });
    expect(data.available).toEqual({
      pastes: false,
      files: false,
      api_keys: true,
      mounts: false,
      storage_configs: false,
    });
    expect(data.storage).toEqual([]);
    expect(data.recent).toEqual([]);
    expect(data.daily).toHaveLength(7);
    expect(data.daily.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
    expect(data.daily.every((d) => d.pastes_created === 0 && d.paste_views === 0)).toBe(true);
  });

  it('is admin-only', async () => {
    const key = await server.call<{ key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'two', permissions: 3 },
    });
    expect((await server.call('GET', '/api/admin/dashboard/stats')).status).toBe(401);
    expect((await server.call('GET', '/api/admin/dashboard/stats', { apiKey: key.body.data!.key })).status).toBe(403);
    expect((await server.call('GET', '/api/admin/dashboard/stats?fresh=maybe', { token })).status).toBe(400);
    await server.call('DELETE', `/api/admin/api-keys/${(key.body.data as unknown as { id: string }).id}`, { token });
  });

  it('counts rows, storage per config, views and uploads per day, and recent activity', async () => {
    await createFeatureTables(db);
    await db
      .insertInto('storage_configs')
      .values([
        { id: 's1', name: 'Main S3', storage_type: 's3', total_capacity: 1000, is_default: 1 },
        { id: 's2', name: 'Archive', storage_type: 's3', total_capacity: null, is_default: 0 },
      ])
      .execute();
    await db.insertInto('mounts').values({ id: 'm1', name: 'photos' }).execute();
    await db
      .insertInto('files')
      .values([
        { id: 'f1', slug: 'a', filename: 'a.txt', size: 100, storage_config_id: 's1', created_at: daysAgo(0, 1) },
        { id: 'f2', slug: 'b', filename: 'b.png', size: 150, storage_config_id: 's1', created_at: daysAgo(2) },
        { id: 'f3', slug: 'c', filename: 'c.zip', size: 7, storage_config_id: 's2', created_at: daysAgo(10) },
      ])
      .execute();
    await db
      .insertInto('pastes')
      .values([
        { id: 'p1', slug: 'p-one', created_by: 'admin', created_at: daysAgo(0, 2) },
        { id: 'p2', slug: 'p-two', created_by: 'apikey:k1', created_at: daysAgo(0, 0) },
        { id: 'p3', slug: 'p-three', created_by: null, created_at: daysAgo(6) },
        { id: 'p4', slug: 'p-old', created_by: null, created_at: daysAgo(8) },
      ])
      .execute();
    const today = new Date().toISOString().slice(0, 10);
    await db
      .insertInto('daily_stats')
      .values([
        { day: today, metric: 'paste_views', value: 5 },
        { day: today, metric: 'file_downloads', value: 2 },
        { day: daysAgo(3).slice(0, 10), metric: 'file_views', value: 9 },
        { day: daysAgo(9).slice(0, 10), metric: 'file_views', value: 99 },
      ])
      .execute();

    // Cached answer first: without fresh it may still be the old one; the cache page clears it.
    await server.call('POST', '/api/admin/cache/clear', { token });
    const cachedFirst = await server.call<DashboardStats>('GET', '/api/admin/dashboard/stats', { token });
    expect(cachedFirst.body.data?.counts.pastes).toBe(4);

    const data = await stats();
    expect(data.counts).toEqual({ pastes: 4, files: 3, api_keys: 1, mounts: 1, storage_configs: 2 });
    expect(Object.values(data.available).every(Boolean)).toBe(true);
    expect(data.storage).toEqual([
      {
        id: 's2',
        name: 'Archive',
        storage_type: 's3',
        is_default: false,
        used_bytes: 7,
        file_count: 1,
        total_capacity: null,
        usage_percent: null,
      },
      {
        id: 's1',
        name: 'Main S3',
        storage_type: 's3',
        is_default: true,
        used_bytes: 250,
        file_count: 2,
        total_capacity: 1000,
        usage_percent: 25,
      },
    ]);
    const last = data.daily.at(-1)!;
    expect(last).toEqual({
      day: today,
      paste_views: 5,
      file_views: 0,
      file_downloads: 2,
      pastes_created: 2,
      files_created: 1,
    });
    expect(data.daily.reduce((s, d) => s + d.pastes_created, 0)).toBe(3);
    expect(data.daily.reduce((s, d) => s + d.files_created, 0)).toBe(2);
    expect(data.daily.reduce((s, d) => s + d.file_views, 0)).toBe(9);
    expect(data.recent.map((r) => `${r.type}:${r.id}`).slice(0, 4)).toEqual([
      'paste:p1',
      'file:f1',
      'paste:p2',
      'file:f2',
    ]);
    expect(data.recent.find((r) => r.id === 'f1')).toMatchObject({ filename: 'a.txt', size: 100 });
  });

  it('stays fast on 100,000 pastes', async () => {
    const total = 100_000;
    const batch = 1000;
    // One paste every 10 minutes: ~2 years of history, ~1,000 of them in the charted week.
    const start = Date.now() - total * 600_000;
    for (let i = 0; i < total; i += batch) {
      const rows = Array.from({ length: batch }, (_, j) => {
        const n = i + j;
        return {
          id: `bulk${n}`,
          slug: `bulk-${n}`,
          views: n % 7,
          created_by: n % 2 ? 'admin' : null,
          created_at: new Date(start + (n + 1) * 600_000).toISOString(),
        };
      });
      await db.insertInto('pastes').values(rows).execute();
    }
    if (target === 'postgres') await sql`analyze pastes`.execute(db);
    await stats(); // warm the catalogue and the statement cache
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const data = await stats();
      times.push(performance.now() - t0);
      expect(data.counts.pastes).toBe(total + 4);
      expect(data.recent[0]?.id).toBe(`bulk${total - 1}`);
    }
    const best = Math.min(...times);
    if (process.env.DASHBOARD_TIMING)
      console.info(`dashboard on ${target} with ${total} pastes: ${times.map((t) => t.toFixed(1)).join(' / ')} ms`);
    // A shared 2-core CI box: a generous bound that a full sort or per-row work would still break.
    expect(best, `dashboard took ${times.map((t) => t.toFixed(0)).join('/')} ms`).toBeLessThan(400);
    // The cached answer costs nothing.
    const t0 = performance.now();
    await server.call('GET', '/api/admin/dashboard/stats', { token });
    expect(performance.now() - t0).toBeLessThan(200);
  }, 120_000);

  it.runIf(target === 'sqlite')('uses indexes for the per-day and recent queries (SQLite plan)', async () => {
    const since = daysAgo(7);
    const plan = async (query: ReturnType<typeof sql>) =>
      (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((r) => r.detail).join(' | ');
    const perDay = await plan(
      sql`select substr(created_at, 1, 10) as day, count(*) as n from pastes where created_at >= ${since} group by substr(created_at, 1, 10)`,
    );
    expect(perDay).toMatch(/SEARCH pastes USING COVERING INDEX pastes_created_at_idx/);
    const recent = await plan(
      sql`select id, slug, created_by, created_at from pastes order by created_at desc limit 8`,
    );
    expect(recent).toMatch(/SCAN pastes USING INDEX pastes_created_at_idx/);
    expect(recent).not.toMatch(/TEMP B-TREE/);
  });
});
