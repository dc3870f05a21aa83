// Faults: the server is killed (SIGKILL, no clean-up of any kind) during a WebDAV PUT and during a copy task, and
// started again on the same DATA_DIR and database. Nothing partial is ever visible under the target name, no temp
// file or task item is left behind once the restarted server has swept and resumed, the PUT can simply be sent
// again and the copy task finishes by itself. (Form and multipart uploads: server/test/tempSweep.int.test.ts.)
import http from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TaskView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, startChildServer, type ChildServer } from '../support/childServer.js';
import { ADMIN, dbTargets, type DbTarget } from '../support/harness.js';
import { startS3rver, type S3Emulator } from '../support/s3Emulator.js';
import { startTcpProxy, type TcpProxy } from '../support/tcpProxy.js';

const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
const TEMP = /^\.clipnest-[0-9a-f]{24}\.tmp$/;

async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`still not true after 30 s: ${what}`);
}

/**
 * One request on a connection of its own: a kept-alive socket of fetch's pool to a killed server (whose port the
 * restarted one may get again) must not be mistaken for the new server hanging up.
 */
function request(url: string, method: string, headers: Record<string, string>, body?: Uint8Array | string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function api<T>(server: ChildServer, token: string, method: string, url: string, body?: unknown) {
  const res = await request(
    server.url + url,
    method,
    { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body === undefined ? undefined : JSON.stringify(body),
  );
  return { status: res.status, body: JSON.parse(res.text) as { data?: T; message: string } };
}

function dav(server: ChildServer, method: string, url: string, body?: Uint8Array) {
  return request(`${server.url}/dav${url}`, method, { authorization: basic }, body);
}

/** Names in a folder (temp files included), sorted; [] when it does not exist. */
function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A PUT that sends `sent` bytes of a `total`-byte body and then waits (for the kill). */
function stalledPut(url: string, total: number, sent: number): void {
  const target = new URL(url);
  const req = http.request({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: 'PUT',
    headers: { authorization: basic, 'content-length': String(total) },
  });
  req.on('error', () => undefined);
  req.write(Buffer.alloc(sent, 1));
}

describe.each(dbTargets)('a server killed during a WebDAV PUT and a copy task, on %s', (target: DbTarget) => {
  let dataDir: string;
  let pgDatabase: { url: string; drop(): Promise<void> } | undefined;
  let s3: S3Emulator;
  let slowS3: TcpProxy;
  const servers: ChildServer[] = [];
  let dst: string;

  const start = async (env: Record<string, string> = {}) => {
    const server = await startChildServer({
      DATA_DIR: dataDir,
      TASK_LEASE: '2',
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
      ...env,
    });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-killed-'));
    dst = path.join(dataDir, 'storage', 'mounted', 'dst');
    mkdirSync(dst, { recursive: true });
    pgDatabase = target === 'postgres' ? await createPgDatabase() : undefined;
    s3 = await startS3rver({ bucket: 'killed-src' });
    // The copy reads its source through a slow link, so that the kill lands in the middle of a file.
    slowS3 = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port), delayMs: 15 });
  });
  afterAll(async () => {
    for (const server of servers) await server.kill();
    await slowS3?.close();
    await s3?.stop();
    await pgDatabase?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no partial file under the target name, sweeps the temp files, and the PUT and the copy complete after a restart', async () => {
    const first = await start({ UPLOAD_IDLE_TIMEOUT: '600' });
    const token = await first.login();
    const local = await api<{ id: string }>(first, token, 'POST', '/api/s3-configs', {
      name: 'dst',
      storage_type: 'local',
      root_path: dst,
    });
    expect(local.status, local.body.message).toBe(201);
    const source = await api<{ id: string }>(first, token, 'POST', '/api/s3-configs', {
      name: 'src',
      provider: 'minio',
      endpoint: `http://127.0.0.1:${slowS3.port}`,
      bucket: s3.bucket,
      region: 'us-east-1',
      access_key_id: s3.accessKeyId,
      secret_access_key: s3.secretAccessKey,
      path_style: true,
    });
    expect(source.status, source.body.message).toBe(201);
    for (const [mountPath, id] of [
      ['/dst', local.body.data!.id],
      ['/src', source.body.data!.id],
    ] as const) {
      const res = await api(first, token, 'POST', '/api/mount/create', {
        name: mountPath.slice(1),
        path: mountPath,
        storage_config_id: id,
        cache_ttl: 0,
      });
      expect(res.status, res.body.message).toBe(201);
    }
    const tempFiles = () => [...names(dst), ...names(path.join(dst, 'copy'))].filter((n) => TEMP.test(n));
    const FILES = 4;
    const SIZE = 2 * 1024 * 1024;
    const content = (i: number) => new Uint8Array(SIZE).fill(10 + i);
    for (let i = 0; i < FILES; i++) expect((await dav(first, 'PUT', `/src/f${i}.bin`, content(i))).status).toBe(201);

    // 1. A WebDAV PUT of 8 MiB stalls after 1 MiB; 2. a copy of /src into /dst/copy runs; then SIGKILL.
    stalledPut(`${first.url}/dav/dst/put.bin`, 8 * 1024 * 1024, 1024 * 1024);
    const started = await api<{ task: TaskView }>(first, token, 'POST', '/api/fs/batch-copy', {
      items: [{ sourcePath: '/src', targetPath: '/dst/copy' }],
    });
    expect(started.status, started.body.message).toBe(202);
    const taskId = started.body.data!.task.id;
    // The kill lands while a copied file is being written (a temp file in /dst/copy) and the PUT's temp file exists.
    await eventually(
      () => names(dst).filter((n) => TEMP.test(n)),
      (temps) => temps.length === 1,
      'the PUT temp',
    );
    await eventually(
      () => names(path.join(dst, 'copy')),
      (list) => list.some((n) => TEMP.test(n)) && list.some((n) => n === 'f1.bin' || n === 'f2.bin'),
      'a copy midway (one file done, the next being written)',
    );
    await first.kill();

    // What the killed process left: temp files, but under the target names only whole files.
    const leftTop = names(dst);
    const leftCopy = names(path.join(dst, 'copy'));
    expect(leftTop).not.toContain('put.bin');
    expect(leftTop.filter((n) => TEMP.test(n))).toHaveLength(1);
    expect(leftCopy.filter((n) => TEMP.test(n))).toHaveLength(1);
    const copiedBefore = leftCopy.filter((n) => !TEMP.test(n));
    expect(copiedBefore.length).toBeGreaterThan(0);
    expect(copiedBefore.length).toBeLessThan(FILES);
    for (const name of copiedBefore) expect(statSync(path.join(dst, 'copy', name)).size).toBe(SIZE);

    // Restarted on the same data: the task resumes by itself, the sweep takes the temp files (idle 1 s).
    const second = await start({ UPLOAD_IDLE_TIMEOUT: '1' });
    const token2 = await second.login();
    expect((await dav(second, 'HEAD', '/dst/put.bin')).status).toBe(404);
    const listing = await api<{ items: { name: string }[] }>(second, token2, 'GET', '/api/fs/list?path=%2Fdst');
    expect(listing.body.data?.items.map((e) => e.name)).not.toContain('put.bin');
    expect(listing.body.data?.items.some((e) => TEMP.test(e.name))).toBe(false);

    const task = await eventually(
      async () => (await api<TaskView>(second, token2, 'GET', `/api/fs/tasks/${taskId}`)).body.data!,
      (t) => !['pending', 'running'].includes(t.status),
      'the copy task resumed and finished',
    );
    expect(task).toMatchObject({ status: 'completed', done_files: FILES, failed_files: 0 });
    for (let i = 0; i < FILES; i++)
      expect(readFileSync(path.join(dst, 'copy', `f${i}.bin`)).equals(Buffer.from(content(i))), `f${i}`).toBe(true);

    // The sweep took every temp file the killed process left.
    await eventually(tempFiles, (temps) => temps.length === 0, 'temp files swept');
    expect(names(path.join(dst, 'copy'))).toEqual(Array.from({ length: FILES }, (_, i) => `f${i}.bin`));

    // The PUT sent again works, and leaves no temp file. Sent to a server with the default idle limit: with 1 s, a
    // loaded machine's second of silence in the body aborted it, or the sweep took its temp file.
    expect(await second.stop()).toBe(0);
    const third = await start();
    const body = new Uint8Array(8 * 1024 * 1024).fill(3);
    expect((await dav(third, 'PUT', '/dst/put.bin', body)).status).toBe(201);
    expect(statSync(path.join(dst, 'put.bin')).size).toBe(body.length);
    expect(tempFiles()).toEqual([]);
    // No task left running or pending (the database holds no orphan work).
    const tasks = await api<{ items: TaskView[] }>(third, await third.login(), 'GET', '/api/fs/tasks');
    expect(tasks.body.data?.items.filter((t) => ['pending', 'running'].includes(t.status))).toEqual([]);
    console.log(
      `[security] SIGKILL on ${target}: WebDAV PUT + copy task (${copiedBefore.length}/${FILES} copied before the kill): ` +
        '2 cases tried, 2 passed',
    );
  }, 180_000);
});
