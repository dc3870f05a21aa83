import type { DashboardStats } from '@clipnest/contract';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import {
  builtinLocalConfig,
  insertFile,
  insertMount,
  insertPaste,
  insertStorageConfig,
  pasteRow,
} from './support/featureRows.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';

/** The fields of a PostgreSQL EXPLAIN (FORMAT JSON) node this test reads. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/**
 * `hour`:00 UTC on the day `n` days back. Today's hours that are still to come (a run just after midnight) become
 * the milliseconds before now instead, in the same order, so "today" rows are never in the future.
 */
function daysAgo(n: number, hour = 12): string {
  const now = Date.now();
  const d = new Date(now - n * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return (d.getTime() > now ? new Date(now - (24 - hour)) : d).toISOString();
}

describe.each(dbTargets)('dashboard on %s', (target) => {
  let server: TestServer;
  let token: string;
  let db: Kysely<Database>;
  let localId: string;
  /** Statements the server ran while this is a list (see the query-plan test). */
  let captured: CompiledQuery[] | null = null;

  const stats = async () => {
    const res = await server.call<DashboardStats>('GET', '/api/admin/dashboard/stats?fresh=1', { token });
    expect(res.status).toBe(200);
    expectEnvelope(res.body, 200);
    return res.body.data!;
  };

  beforeAll(async () => {
    server = await startTestServer(target, {}, { onQuery: (query) => captured?.push(query) });
    token = await server.login();
    db = server.built.database.db;
    localId = (await builtinLocalConfig(db)).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports zero pastes/files on a fresh install', async () => {
    await server.call('POST', '/api/admin/api-keys', { token, body: { name: 'one', permissions: 1 } });
    const data = await stats();
    // A fresh install has its built-in local storage config and no mount.
    expect(data.counts).toEqual({ pastes: 0, files: 0, api_keys: 1, mounts: 0, storage_configs: 1 });
    expect(data.available).toEqual({
      pastes: true,
      files: true,
      api_keys: true,
      mounts: true,
      storage_configs: true,
    });
    expect(data.storage).toEqual([
      {
        id: localId,
        name: 'Local storage',
        storage_type: 'local',
        is_default: true,
        used_bytes: 0,
        file_count: 0,
        total_capacity: null,
        usage_percent: null,
      },
    ]);
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
    await insertStorageConfig(db, [
      { id: 's1', name: 'Main S3', storage_type: 's3', total_capacity: 1000 },
      { id: 's2', name: 'Archive', storage_type: 's3', total_capacity: null },
    ]);
    await insertMount(db, { id: 'm1', name: 'photos', storage_config_id: 's1' });
    await insertFile(db, [
      { id: 'f1', slug: 'a', filename: 'a.txt', size: 100, storage_config_id: 's1', created_at: daysAgo(0, 1) },
      { id: 'f2', slug: 'b', filename: 'b.png', size: 150, storage_config_id: 's1', created_at: daysAgo(2) },
      { id: 'f3', slug: 'c', filename: 'c.zip', size: 7, storage_config_id: 's2', created_at: daysAgo(10) },
    ]);
    await insertPaste(db, [
      { id: 'p1', slug: 'p-one', created_by: 'admin', created_at: daysAgo(0, 2) },
      { id: 'p2', slug: 'p-two', created_by: 'apikey:k1', created_at: daysAgo(0, 0) },
      { id: 'p3', slug: 'p-three', created_by: 'apikey:k1', created_at: daysAgo(6) },
      { id: 'p4', slug: 'p-old', created_by: 'admin', created_at: daysAgo(8) },
    ]);
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
    expect(data.counts).toEqual({ pastes: 4, files: 3, api_keys: 1, mounts: 1, storage_configs: 3 });
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
        id: localId,
        name: 'Local storage',
        storage_type: 'local',
        is_default: true,
        used_bytes: 0,
        file_count: 0,
        total_capacity: null,
        usage_percent: null,
      },
      {
        id: 's1',
        name: 'Main S3',
        storage_type: 's3',
        is_default: false,
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

    // Creators are shown by name: the admin's username, a key's name, nothing for a creator that is gone.
    const admin = await db.selectFrom('admins').select(['id', 'username']).executeTakeFirstOrThrow();
    const key = await db.selectFrom('api_keys').select(['id', 'name']).executeTakeFirstOrThrow();
    await db.updateTable('pastes').set({ created_by: admin.id }).where('id', '=', 'p1').execute();
    await db
      .updateTable('files')
      .set({ created_by: `apikey:${key.id}` })
      .where('id', '=', 'f1')
      .execute();
    const named = new Map((await stats()).recent.map((r) => [r.id, r.created_by_name]));
    expect(Object.fromEntries(['p1', 'f1', 'p2'].map((id) => [id, named.get(id)]))).toEqual({
      p1: admin.username,
      f1: key.name,
      p2: null,
    });
  });

  it('answers correctly over 100,000 pastes', async () => {
    const total = 100_000;
    const batch = 1000;
    // One paste every 10 minutes: ~2 years of history, ~1,000 of them in the charted week.
    const start = Date.now() - total * 600_000;
    // One transaction: a bulk load, not 100 commits. SQLite writes synchronously, so let the event loop
    // turn between batches: the server (same process) then times out its idle keep-alive sockets while
    // the client can still notice, instead of both at once on the next request (ECONNRESET).
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i += batch) {
        const rows = Array.from({ length: batch }, (_, j) => {
          const n = i + j;
          return pasteRow({
            id: `bulk${n}`,
            slug: `bulk-${n}`,
            views: n % 7,
            created_by: n % 2 ? 'admin' : 'apikey:k1',
            created_at: new Date(start + (n + 1) * 600_000).toISOString(),
          });
        });
        await trx.insertInto('pastes').values(rows).execute();
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    if (target === 'postgres') await sql`analyze pastes`.execute(db);
    // Correct on 100,000 rows; that it stays fast is shown by the query-plan test below (no timings in tests).
    const data = await stats();
    expect(data.counts.pastes).toBe(total + 4);
    expect(data.recent[0]?.id).toBe(`bulk${total - 1}`);
    const cached = await server.call<DashboardStats>('GET', '/api/admin/dashboard/stats', { token });
    expect(cached.body.data?.counts.pastes).toBe(total + 4);
  }, 120_000);

  it('plans every statement of a dashboard request as an index lookup, never a full scan', async () => {
    await stats(); // first request after start-up work; the measured one follows
    captured = [];
    await stats();
    const statements = captured.filter((q) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(q.sql));
    captured = null;
    const recentPastes = statements.find((q) => /from "pastes"/.test(q.sql));
    expect(recentPastes).toBeDefined();
    const problems = (await Promise.all(statements.map(scanProblems))).flat();
    expect(problems).toEqual([]);
    if (target === 'postgres') {
      // With 100,000 analysed rows the planner picks the index by itself, not only when seq scans are off.
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${recentPastes!.sql}`, [...recentPastes!.parameters]),
      );
      expect(rows.map((r) => r['QUERY PLAN']).join(' | ')).toMatch(/Index Scan Backward using pastes_created_at/);
    }
  });

  /**
   * What makes one captured statement grow with the data, from its plan with its own parameters.
   * storage_configs is exempt: the answer has one entry per config, so it is read whole by design.
   * SQLite: a `SCAN t` without an index, or a scan of a whole index except for `ORDER BY … LIMIT`
   * served in index order. PostgreSQL (planned with sequential scans off and run, selects only):
   * a Seq Scan (no usable index), or a node reading more than 1,000 rows (a full index scan).
   */
  async function scanProblems(query: CompiledQuery): Promise<string[]> {
    const where = `in: ${query.sql.replace(/\s+/g, ' ').trim()}`;
    if (target === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      const plan = rows.map((r) => r.detail);
      const limitedInIndexOrder =
        /\blimit\b/i.test(query.sql) &&
        !/\b(count|sum)\s*\(|\bgroup by\b/i.test(query.sql) &&
        !plan.some((line) => /TEMP B-TREE/.test(line));
      return plan
        .filter((line) => /^SCAN (?!CONSTANT ROW)(?!storage_configs\b)/.test(line))
        .filter((line) => !/USING (COVERING )?INDEX/.test(line) || !limitedInIndexOrder)
        .map((line) => `${line} ${where}`);
    }
    const analyse = /^\s*select\b/i.test(query.sql);
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        CompiledQuery.raw(`explain (${analyse ? 'analyze, ' : ''}format json) ${query.sql}`, [...query.parameters]),
      );
      const problems: string[] = [];
      const visit = (node: PlanNode) => {
        const table = node['Relation Name'];
        if (table && table !== 'storage_configs') {
          const read =
            ((node['Actual Rows'] ?? 0) +
              (node['Rows Removed by Filter'] ?? 0) +
              (node['Rows Removed by Index Recheck'] ?? 0)) *
            (node['Actual Loops'] ?? 1);
          if (node['Node Type'] === 'Seq Scan') problems.push(`Seq Scan on ${table} ${where}`);
          else if (read > 1000) problems.push(`${node['Node Type']} on ${table} reads ${read} rows ${where}`);
        }
        node.Plans?.forEach(visit);
      };
      visit(rows[0]!['QUERY PLAN'][0].Plan);
      return problems;
    });
  }
});
