// Server-side URL fetches (POST /api/url/fetch) run as tasks of type `download` in the tasks table: they show in
// /api/fs/tasks, keep no clear share password, count a body without Content-Length, and survive a restart as
// failed + retryable (the retry downloads the URL again into the same share id).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { FileView, TaskView, UrlFetchJob } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFiles, rawGet } from './support/fileShares.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { md5Hex, testBytes } from './support/uploads.js';

const body = testBytes(200_000, 5);

/**
 * `/plain.bin` (Content-Length), `/chunked.bin` (no length), `/gated.bin`: while `gate.closed`, sends half the
 * body and holds the rest (resolving `gate.reached`); once opened, the whole body at once.
 */
async function startRemote() {
  let reached!: () => void;
  const gate = { closed: true, reached: new Promise<void>((resolve) => (reached = resolve)) };
  const held = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/plain.bin' || (path === '/gated.bin' && !gate.closed)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      res.end(body);
    } else if (path === '/chunked.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(body.subarray(0, 1000));
      setTimeout(() => res.end(body.subarray(1000)), 20);
    } else if (path === '/gated.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length / 2));
      held.add(res);
      reached();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    gate,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(dbTargets)('URL fetch jobs are tasks (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let remote: Awaited<ReturnType<typeof startRemote>>;

  beforeAll(async () => {
    remote = await startRemote();
    server = await startTestServer(target, { ALLOW_PRIVATE_URLS: 'true' }, { keepData: true });
    token = await server.login();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  const waitJob = async (id: string): Promise<UrlFetchJob> => {
    for (;;) {
      const res = await server.call<UrlFetchJob>('GET', `/api/url/jobs/${id}`, { token });
      expect(res.status, res.body.message).toBe(200);
      if (res.body.data!.status !== 'downloading') return res.body.data!;
      await new Promise((r) => setTimeout(r, 30));
    }
  };
  const downloaded = async (file: FileView, password?: string) => {
    const res = await rawGet(
      server,
      `/api/file-download/${file.slug}${password ? `?password=${encodeURIComponent(password)}` : ''}`,
    );
    expect(res.status).toBe(200);
    return res.body;
  };

  it('is a download task in /api/fs/tasks; keeps no clear password; counts a body without Content-Length', async () => {
    const start = await server.call<UrlFetchJob>('POST', '/api/url/fetch', {
      token,
      body: { url: `${remote.url}/chunked.bin`, password: 'fetch-secret-42', remark: 'chunked' },
    });
    expectEnvelope(start.body, 202);
    expect(start.body.data).toMatchObject({ status: 'downloading', total: null, progress: null });
    const id = start.body.data!.job_id;
    expect(start.body.data!.file_id).toBe(id);
    const job = await waitJob(id);
    expect(job).toMatchObject({ status: 'completed', received: body.length, total: null, progress: 100 });
    expect(job.file).toMatchObject({ id, filename: 'chunked.bin', size: body.length, has_password: true });
    expect(md5Hex(await downloaded(job.file!, 'fetch-secret-42'))).toBe(md5Hex(body));

    const task = await server.call<TaskView>('GET', `/api/fs/tasks/${id}`, { token });
    expect(task.body.data).toMatchObject({
      type: 'download',
      status: 'completed',
      total_files: 1,
      done_files: 1,
      total_bytes: body.length,
      bytes_done: body.length,
      progress: 100,
    });
    expect(task.body.data?.items?.[0]).toMatchObject({ source: `${remote.url}/chunked.bin`, target: 'chunked.bin' });
    const listed = await server.call<{ items: TaskView[] }>('GET', '/api/fs/tasks', { token });
    expect(listed.body.data?.items.map((t) => t.id)).toContain(id);
    const row = await server.built.database.db
      .selectFrom('tasks')
      .select('options_json')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.options_json).not.toContain('fetch-secret-42');

    // An id that is no URL fetch is a 404.
    expectEnvelope((await server.call('GET', '/api/url/jobs/not-a-job', { token })).body, 404);
  });

  it('survives a restart: the next start resumes it and downloads the URL into the same share', async () => {
    const before = await countFiles(server);
    const start = await server.call<UrlFetchJob>('POST', '/api/url/fetch', {
      token,
      body: { url: `${remote.url}/gated.bin`, remark: 'restart' },
    });
    expectEnvelope(start.body, 202);
    expect(start.body.data).toMatchObject({ status: 'downloading', total: body.length });
    const id = start.body.data!.job_id;
    await remote.gate.reached; // half the body is on its way, the rest is held: a restart now cuts it
    remote.gate.closed = false; // a new request gets the whole body

    // The stopping server hands its task back (lease, docs/api/fs-tasks.md); the next start claims and resumes it.
    const { dataDir, schema } = server;
    await server.close();
    server = await startTestServer(
      target,
      { ALLOW_PRIVATE_URLS: 'true' },
      { reuse: { dataDir, ...(schema ? { schema } : {}) } },
    );
    token = await server.login();

    const done = await waitJob(id);
    expect(done).toMatchObject({ status: 'completed', received: body.length, progress: 100 });
    expect(done.file).toMatchObject({ id, remark: 'restart', size: body.length });
    expect(md5Hex(await downloaded(done.file!))).toBe(md5Hex(body));
    const task = await server.call<TaskView>('GET', `/api/fs/tasks/${id}`, { token });
    expect(task.body.data).toMatchObject({ type: 'download', status: 'completed' });
    expect(await countFiles(server)).toBe(before + 1);
  }, 60_000);

  it('is cancelled through either API', async () => {
    remote.gate.closed = true;
    remote.gate.reached = new Promise<void>(() => undefined);
    const start = await server.call<UrlFetchJob>('POST', '/api/url/fetch', {
      token,
      body: { url: `${remote.url}/gated.bin`, filename: 'held.bin' },
    });
    const id = start.body.data!.job_id;
    const cancelled = await server.call<TaskView>('POST', `/api/fs/tasks/${id}/cancel`, { token });
    expect(cancelled.status, cancelled.body.message).toBe(200);
    const job = await waitJob(id);
    expect(job).toMatchObject({ status: 'cancelled', error: 'download cancelled' });
    const again = await server.call<UrlFetchJob>('POST', '/api/url/cancel', { token, body: { file_id: id } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'cancelled' });
  });
});
