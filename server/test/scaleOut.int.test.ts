// Two Clipnest instances on one PostgreSQL database and one S3 emulator behave as one (issue #26,
// docs/deployment.md). In-process pairs for what the HTTP surface shows; child processes (main.ts) for what a
// process's death or SIGTERM does. PostgreSQL only: on SQLite there is one instance by design.
import http from 'node:http';
import pg from 'pg';
import type { PasteView, ReadinessInfo, StorageConfigView, TaskView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, startChildServer, type ChildServer } from './support/childServer.js';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { startTestServer, type TestServer } from './support/harness.js';
import { createMount } from './support/mounts.js';
import { startS3rver as startS3Emulator, type S3Emulator } from './support/s3Emulator.js';
import { createPaste } from './support/pastes.js';
import { PasteRepository } from '../src/repositories/pasteRepository.js';
import { ADMIN } from './support/harness.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const pgUrl = process.env.TEST_DATABASE_URL;
const ENCRYPTION_KEY = 'scale-out-shared-encryption-key-0123456789';
const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
const LOCK_BODY =
  '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
  '<D:locktype><D:write/></D:locktype><D:owner>alice</D:owner></D:lockinfo>';

/** Polls `read` until `done` holds (the test's own timeout bounds it: no timing assertion). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function dav(url: string, method: string, headers: Record<string, string> = {}, body?: string | Uint8Array) {
  return fetch(url, { method, headers: { authorization: basic, ...headers }, body: body as string | undefined });
}

describe.skipIf(!pgUrl)(
  'two instances on one PostgreSQL database, in process (skipped without TEST_DATABASE_URL: SQLite is one instance by design)',
  () => {
    let a: TestServer;
    let b: TestServer;
    let s3: S3rverHandle;
    let token: string;
    let s3Config: StorageConfigView;

    beforeAll(async () => {
      s3 = await startS3rver('scale-out');
      a = await startTestServer('postgres', { ENCRYPTION_KEY });
      b = await startTestServer('postgres', { ENCRYPTION_KEY }, { sharedSchema: a.schema });
      token = await a.login();
      s3Config = await createS3Config(a, token, s3);
      await createMount(a, token, { path: '/s3', storage_config_id: s3Config.id, cache_ttl: 600 });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      await s3?.close();
    });

    it('a token from A works on B, and a logout on B ends it on A', async () => {
      const mine = await a.login();
      expect((await b.call('GET', '/api/admin/api-keys', { token: mine })).status).toBe(200);
      expect((await b.call('POST', '/api/admin/logout', { token: mine })).status).toBe(200);
      expect((await a.call('GET', '/api/admin/api-keys', { token: mine })).status).toBe(401);
      expect((await b.call('GET', '/api/admin/api-keys', { token: mine })).status).toBe(401);
    });

    it('a max-views-1 paste viewed 100 times at once across both instances is shown exactly once', async () => {
      const paste = await createPaste(a, { token }, { content: 'once only', max_views: 1 });
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/api/paste/${paste.slug}`)),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.every((s) => s === 200 || s === 410)).toBe(true);
    });

    it('views served by B show on A within one flush interval, never more than were served', async () => {
      const paste = await createPaste(a, { token }, { content: 'counted', max_views: 0 });
      for (let i = 0; i < 10; i++) expect((await fetch(`${b.url}/api/paste/${paste.slug}`)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await fetch(`${a.url}/api/paste/${paste.slug}`)).status).toBe(200);
      const seen: number[] = [];
      await eventually(
        async () => (await a.call<PasteView>('GET', `/api/pastes/${paste.id}`, { token })).body.data?.views ?? -1,
        (views) => (seen.push(views), views === 15),
      );
      // A always counted its own 5 at once; B's arrive with B's flush; never more than were served.
      expect(seen.every((v) => v >= 5 && v <= 15)).toBe(true);
    });

    it('view batches flushed by both instances at once (rows in any order) never deadlock nor lose a count', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 30; i++)
        ids.push((await createPaste(a, { token }, { content: `batch ${i}`, max_views: 0 })).id);
      const repoA = new PasteRepository(a.built.database.db);
      const repoB = new PasteRepository(b.built.database.db);
      const forward = new Map(ids.map((id) => [id, 1]));
      const backward = new Map([...ids].reverse().map((id) => [id, 2]));
      for (let round = 0; round < 5; round++) await Promise.all([repoA.addViews(forward), repoB.addViews(backward)]);
      const rows = await a.built.database.db
        .selectFrom('pastes')
        .select(['id', 'views'])
        .where('id', 'in', ids)
        .execute();
      expect(rows.map((r) => Number(r.views))).toEqual(ids.map(() => 15));
    });

    it('a WebDAV lock taken on A blocks a PUT on B', async () => {
      expect((await dav(`${a.url}/dav/s3/locked.txt`, 'PUT', {}, 'v1')).status).toBe(201);
      const lock = await dav(`${a.url}/dav/s3/locked.txt`, 'LOCK', { timeout: 'Second-600' }, LOCK_BODY);
      expect(lock.status).toBe(200);
      const lockToken = lock.headers.get('lock-token') as string;
      expect((await dav(`${b.url}/dav/s3/locked.txt`, 'PUT', {}, 'v2')).status).toBe(423);
      expect((await dav(`${b.url}/dav/s3/locked.txt`, 'PUT', { if: `(${lockToken})` }, 'v3')).status).toBe(204);
      expect((await dav(`${b.url}/dav/s3/locked.txt`, 'UNLOCK', { 'lock-token': lockToken })).status).toBe(204);
      expect((await dav(`${a.url}/dav/s3/locked.txt`, 'PUT', {}, 'v4')).status).toBe(204);
    });

    it('a setting changed on A is in effect on B (NOTIFY, not the cache TTL)', async () => {
      const read = async () =>
        (await b.call<{ site_title: string }>('GET', '/api/public/site-settings')).body.data?.site_title;
      expect(await read()).toBe('Clipnest'); // B's cache is filled now
      const saved = await a.call('PUT', '/api/admin/settings/group/4', { token, body: { site_title: 'Nest two' } });
      expect(saved.status).toBe(200);
      expect(await eventually(read, (title) => title === 'Nest two')).toBe('Nest two');
    });

    it('a listing on B reflects a write on A although the mount caches listings for 10 minutes', async () => {
      const names = async () =>
        (
          await b.call<{ items: { name: string }[] }>('GET', `/api/fs/list?path=${encodeURIComponent('/s3/shared')}`, {
            token,
          })
        ).body.data?.items.map((e) => e.name) ?? [];
      expect((await dav(`${a.url}/dav/s3/shared`, 'MKCOL')).status).toBe(201);
      expect((await dav(`${a.url}/dav/s3/shared/one.txt`, 'PUT', {}, '1')).status).toBe(201);
      expect(await names()).toEqual(['one.txt']); // cached on B for the mount's cache_ttl
      expect((await dav(`${a.url}/dav/s3/shared/two.txt`, 'PUT', {}, '2')).status).toBe(201);
      expect(await eventually(names, (list) => list.length === 2)).toEqual(['one.txt', 'two.txt']);
    });

    it('listens again after its LISTEN connection was cut, and invalidations flow again', async () => {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      try {
        const listeners = async () =>
          (
            await admin.query<{ pid: number }>('select pid from pg_stat_activity where query = $1', [
              `LISTEN "clipnest_${a.schema}"`,
            ])
          ).rows.map((r) => r.pid);
        const before = await listeners();
        expect(before).toHaveLength(2);
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]);
        await eventually(listeners, (pids) => pids.length === 2 && pids.every((pid) => !before.includes(pid)));
      } finally {
        await admin.end();
      }
      const names = async () =>
        (
          await b.call<{ items: { name: string }[] }>('GET', `/api/fs/list?path=${encodeURIComponent('/s3/again')}`, {
            token,
          })
        ).body.data?.items.map((e) => e.name) ?? [];
      expect((await dav(`${a.url}/dav/s3/again`, 'MKCOL')).status).toBe(201);
      expect(await names()).toEqual([]);
      expect((await dav(`${a.url}/dav/s3/again/x.txt`, 'PUT', {}, 'x')).status).toBe(201);
      expect(await eventually(names, (list) => list.length === 1)).toEqual(['x.txt']);
    });

    it('a periodic job due on both instances at once runs on one of them, once per period', async () => {
      const ran: string[] = [];
      const now = new Date();
      const job = (who: string) => async () => {
        ran.push(who);
        await new Promise((resolve) => setTimeout(resolve, 50));
      };
      const results = await Promise.all([
        a.built.services.cluster.runDue('test-sweep', 60_000, now, job('a')),
        b.built.services.cluster.runDue('test-sweep', 60_000, now, job('b')),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      // Later in the same period, the other instance finds it done.
      expect(await b.built.services.cluster.runDue('test-sweep', 60_000, new Date(), job('b'))).toBe(false);
      expect(await a.built.services.cluster.runDue('test-sweep', 60_000, new Date(), job('a'))).toBe(false);
      expect(ran).toHaveLength(1);
      const row = await a.built.database.db
        .selectFrom('job_runs')
        .selectAll()
        .where('name', '=', 'test-sweep')
        .executeTakeFirstOrThrow();
      expect(Number(row.runs)).toBe(1);
    });

    it('the paste sweeper and a scheduled backup due on both instances run once', async () => {
      const expired = await createPaste(a, { token }, { content: 'expired soon', expires_in: 1 });
      const sweeps: number[] = [];
      for (const server of [a, b]) {
        const original = server.built.services.pastes.sweepExpired.bind(server.built.services.pastes);
        server.built.services.pastes.sweepExpired = async () => {
          const n = await original();
          sweeps.push(n);
          return n;
        };
      }
      a.clock.advance(2 * 3600_000);
      b.clock.advance(2 * 3600_000);
      const sweep = (server: TestServer) =>
        server.built.services.cluster.runDue('paste-sweep', 600_000, server.clock.now(), async () => {
          await server.built.services.pastes.sweepExpired();
        });
      await Promise.all([sweep(a), sweep(b)]);
      expect(sweeps).toHaveLength(1);
      expect((await b.call('GET', `/api/pastes/${expired.id}`, { token })).status).toBe(404);

      const saved = await a.call('PUT', '/api/admin/settings/group/1', {
        token,
        body: {
          backup_schedule_enabled: true,
          backup_schedule_storage_config_id: s3Config.id,
          backup_schedule_interval_hours: 24,
          backup_schedule_keep: 5,
        },
      });
      expect(saved.status).toBe(200);
      await eventually(
        async () => (await b.built.services.settings.values()).backup_schedule_enabled,
        (on) => on,
      );
      const written = await Promise.all([
        a.built.services.backupScheduler.tick(),
        b.built.services.backupScheduler.tick(),
      ]);
      expect(written.filter(Boolean)).toHaveLength(1);
      // Whichever comes next finds the new file and nothing due.
      expect(await b.built.services.backupScheduler.tick()).toBeNull();
      expect(await a.built.services.backupScheduler.tick()).toBeNull();
      expect((await a.built.services.backupScheduler.status()).files).toHaveLength(1);
    });

    it('both instances are ready and name themselves', async () => {
      const [ra, rb] = await Promise.all(
        [a, b].map(async (s) => (await s.call<ReadinessInfo>('GET', '/api/health/ready')).body.data),
      );
      expect(ra?.status).toBe('ok');
      expect(rb?.status).toBe('ok');
      expect(ra?.instance).not.toBe(rb?.instance);
    });
  },
);

describe.skipIf(!pgUrl)('two instance processes on one PostgreSQL database (skipped without TEST_DATABASE_URL)', () => {
  let s3: S3Emulator;
  let database: { url: string; drop(): Promise<void> };
  const dirs: string[] = [];
  const children: ChildServer[] = [];

  const start = async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-scale-'));
    dirs.push(dataDir);
    const child = await startChildServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      ENCRYPTION_KEY,
      TASK_LEASE: '2',
      SHUTDOWN_TIMEOUT: '20',
    });
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    [s3, database] = await Promise.all([startS3Emulator({ bucket: 'scale-src' }), createPgDatabase()]);
    await s3.createBucket('scale-dst');
  });
  afterAll(async () => {
    for (const child of children) await child.kill();
    await database?.drop();
    await s3?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const api = async <T>(server: ChildServer, token: string, method: string, url: string, body?: unknown) => {
    const res = await fetch(server.url + url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data?: T; message: string } };
  };

  it('a copy task started on A survives A being killed (SIGKILL) and is completed by B', async () => {
    const a = await start();
    const b = await start();
    const token = await a.login();
    const configs: string[] = [];
    for (const bucket of ['scale-src', 'scale-dst']) {
      const res = await api<StorageConfigView>(a, token, 'POST', '/api/s3-configs', {
        name: bucket,
        provider: 'minio',
        endpoint: s3.endpoint,
        bucket,
        region: 'us-east-1',
        access_key_id: 'S3RVER',
        secret_access_key: 'S3RVER',
        path_style: true,
      });
      expect(res.status, res.body.message).toBe(201);
      configs.push(res.body.data!.id);
    }
    for (const [i, id] of configs.entries()) {
      const res = await api(a, token, 'POST', '/api/mount/create', {
        name: `m${i}`,
        path: i === 0 ? '/from' : '/to',
        storage_config_id: id,
        cache_ttl: 0,
      });
      expect(res.status, res.body.message).toBe(201);
    }
    const FILES = 20;
    const body = new Uint8Array(512 * 1024).fill(7);
    for (let i = 0; i < FILES; i++)
      expect((await dav(`${a.url}/dav/from/f${i}.bin`, 'PUT', {}, body)).status).toBe(201);

    const started = await api<{ task: TaskView }>(a, token, 'POST', '/api/fs/batch-copy', {
      items: [{ sourcePath: '/from', targetPath: '/to/copy' }],
    });
    expect(started.status, started.body.message).toBe(202);
    const id = started.body.data!.task.id;
    // Midway: some bytes moved, not all; then A dies without any clean-up.
    const midway = await eventually(
      async () => (await api<TaskView>(b, token, 'GET', `/api/fs/tasks/${id}`)).body.data!,
      (task) => task.status !== 'pending' && task.bytes_done > 0,
    );
    await a.kill();
    expect(midway.status).toBe('running');
    expect(midway.done_files).toBeLessThan(FILES);

    const done = await eventually(
      async () => (await api<TaskView>(b, token, 'GET', `/api/fs/tasks/${id}`)).body.data!,
      (task) => !['pending', 'running'].includes(task.status),
    );
    expect(done).toMatchObject({ status: 'completed', done_files: FILES, failed_files: 0 });
    const listing = await api<{ items: { name: string; size: number }[] }>(
      b,
      token,
      'GET',
      `/api/fs/list?path=${encodeURIComponent('/to/copy')}&refresh=true`,
    );
    expect(listing.body.data?.items).toHaveLength(FILES);
    expect(listing.body.data?.items.every((e) => e.size === body.length)).toBe(true);
  }, 120_000);

  it('SIGTERM during an upload lets it complete (or leaves nothing), then the process exits 0', async () => {
    const a = await start();
    const b =
      children.find((c) => c !== a && c.child.exitCode === null && c.child.signalCode === null) ?? (await start());
    const CHUNKS = 20;
    const chunk = new Uint8Array(64 * 1024).fill(9);
    const url = new URL(`${a.url}/dav/from/slow.bin`);
    let sigtermSent!: () => void;
    const sent = new Promise<void>((resolve) => (sigtermSent = resolve));
    const answer = new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'PUT',
          headers: { authorization: basic, 'content-length': String(CHUNKS * chunk.length) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      void (async () => {
        for (let i = 0; i < CHUNKS; i++) {
          req.write(chunk);
          if (i === 2) {
            a.child.kill('SIGTERM');
            sigtermSent();
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        req.end();
      })();
    });
    const exited = new Promise<number | null>((resolve) => a.child.once('exit', (code) => resolve(code)));
    await sent;
    const status = await answer.catch(() => 0);
    expect(await exited).toBe(0);
    // SHUTDOWN_TIMEOUT (20 s) leaves the upload ample time: it completes, whole.
    expect(status).toBe(201);
    const stat = await fetch(`${b.url}/dav/from/slow.bin`, { method: 'HEAD', headers: { authorization: basic } });
    if (status === 201 || status === 204) {
      expect(stat.status).toBe(200);
      expect(stat.headers.get('content-length')).toBe(String(CHUNKS * chunk.length));
    } else {
      expect(stat.status).toBe(404);
    }
  }, 120_000);
});
