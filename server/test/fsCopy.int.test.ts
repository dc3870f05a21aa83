import { Permission, type BatchCopyResult, type TaskView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CopyService } from '../src/services/fs/tasks/copyService.js';
import { startS3rver, type S3rverHandle } from './support/fileShares.js';
import { fileExists, mountBoth, putFile, readFile, waitForTask } from './support/fsTree.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createPathKey } from './support/mounts.js';
import { testBytes } from './support/uploads.js';

const FILES = 50;
const fileName = (i: number) => `${i < 25 ? '' : 'sub/'}f${String(i).padStart(2, '0')}.bin`;
const bytesOf = (i: number) => testBytes(1000 + i * 997, i + 1);

/**
 * Holds the copy of the item with sequence number `seq` until the task's signal aborts (cancel or stop):
 * a deterministic "midway" without timing.
 */
function gateAt(copies: CopyService, seq: number) {
  const original = copies.runItem.bind(copies);
  let reached!: () => void;
  const atGate = new Promise<void>((resolve) => (reached = resolve));
  const spy = vi.spyOn(copies, 'runItem').mockImplementation(async (ctx, item) => {
    if (item.seq === seq) {
      reached();
      await new Promise<never>((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    }
    return original(ctx, item);
  });
  return { atGate, restore: () => spy.mockRestore() };
}

async function expectCopied(server: TestServer, from: string, to: string) {
  for (let i = 0; i < FILES; i++) {
    expect((await readFile(server, `${to}/${fileName(i)}`)).equals(Buffer.from(bytesOf(i))), fileName(i)).toBe(true);
    expect(await fileExists(server, `${from}/${fileName(i)}`)).toBe(true);
  }
}

/**
 * A limit, not a speed check: these tests make some 200 requests one after the other (the copy to S3, then every
 * file read back), with S3 emulated in the same process. Alone they take 1–3 s; in CI the server's tests run niced
 * beside the browser lane, and on PostgreSQL they came within a few seconds of the default 30 s.
 */
const COPY_TASK_LIMIT_MS = 90_000;

describe.each(dbTargets)('copy tasks on %s', (target) => {
  let s3: S3rverHandle;
  let server: TestServer;
  let token: string;
  let s3Id: string;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target, {}, { keepData: true }), startS3rver()]);
    token = await server.login();
    ({ s3Id } = await mountBoth(server, token, s3));
    for (let i = 0; i < FILES; i++) await putFile(server, `/local/src/${fileName(i)}`, bytesOf(i));
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const copy = (body: unknown, auth: { token?: string; apiKey?: string } = { token }) =>
    server.call<BatchCopyResult>('POST', '/api/fs/batch-copy', { ...auth, body });

  it(
    'copies a folder of 50 files local → S3 as a task; cancelled midway, then retried to byte-identical results',
    async () => {
      const gate = gateAt(server.built.services.copies, 20);
      const started = await copy({ items: [{ sourcePath: '/local/src', targetPath: '/s3/dst' }] });
      expect(started.status).toBe(202);
      expect(started.body.data?.requiresClientSideCopy).toBe(false);
      const id = started.body.data?.task.id as string;
      expect(started.body.data?.task).toMatchObject({ type: 'copy', total_files: FILES });
      // The structured subject the client titles the task from (in its own language).
      expect(started.body.data?.task.subject).toEqual({ source: '/local/src', target: '/s3/dst', count: 1 });
      await gate.atGate;

      const cancelled = await server.call<TaskView>('POST', `/api/fs/tasks/${id}/cancel`, { token });
      expect(cancelled.status).toBe(200);
      const view = cancelled.body.data as TaskView;
      expect(view.status).toBe('cancelled');
      const statuses = view.items?.map((item) => item.status) ?? [];
      expect(statuses.slice(0, 20).every((s) => s === 'completed')).toBe(true);
      expect(statuses.slice(20).every((s) => s === 'pending')).toBe(true);
      const copiedFiles = view.items?.filter((item) => !item.is_dir && item.status === 'completed').length ?? 0;
      expect(view.done_files).toBe(copiedFiles);
      expect(copiedFiles).toBeGreaterThan(0);
      expect(copiedFiles).toBeLessThan(FILES);
      // Only the files before the gate reached the bucket.
      const present = await Promise.all(
        Array.from({ length: FILES }, (_, i) => fileExists(server, `/s3/dst/${fileName(i)}`)),
      );
      expect(present.filter(Boolean).length).toBe(copiedFiles);
      gate.restore();

      const again = await server.call<TaskView>('POST', `/api/fs/tasks/${id}/cancel`, { token });
      expectEnvelope(again.body, 409);
      const retried = await server.call<TaskView>('POST', `/api/fs/tasks/${id}/retry`, { token });
      expect(retried.status).toBe(202);
      const done = await waitForTask(server, token, id);
      expect(done).toMatchObject({ status: 'completed', done_files: FILES, failed_files: 0, progress: 100 });
      expect(done.bytes_done).toBe(done.total_bytes);
      await expectCopied(server, '/local/src', '/s3/dst');

      const list = await server.call<{ items: TaskView[]; total: number }>('GET', '/api/fs/tasks', { token });
      expect(list.body.data?.items.map((t) => t.id)).toContain(id);
      const cleared = await server.call<{ cleared: number }>('DELETE', '/api/fs/tasks/completed', { token });
      expect(cleared.body.data?.cleared).toBeGreaterThanOrEqual(1);
      expect((await server.call('GET', `/api/fs/tasks/${id}`, { token })).status).toBe(404);
    },
    COPY_TASK_LIMIT_MS,
  );

  it('copies within one storage with the storage copy, skips existing targets when asked', async () => {
    await putFile(server, '/local/one.txt', 'first');
    await putFile(server, '/local/two.txt', 'kept');
    const res = await copy({
      items: [
        { sourcePath: '/local/one.txt', targetPath: '/local/copied/one.txt' },
        { sourcePath: '/local/one.txt', targetPath: '/local/two.txt' },
      ],
      skipExisting: true,
    });
    expect(res.status).toBe(202);
    const done = await waitForTask(server, token, res.body.data?.task.id as string);
    expect(done.status).toBe('completed');
    const full = await server.call<TaskView>('GET', `/api/fs/tasks/${done.id}`, { token });
    expect(full.body.data?.items?.map((i) => i.skipped)).toEqual([false, true]);
    expect((await readFile(server, '/local/copied/one.txt')).toString()).toBe('first');
    expect((await readFile(server, '/local/two.txt')).toString()).toBe('kept');
  });

  it('refuses bad items before anything is copied', async () => {
    const before = (await server.call<{ total: number }>('GET', '/api/fs/tasks', { token })).body.data?.total;
    const bad: Array<[unknown, number, RegExp]> = [
      [{ items: [] }, 400, /items is empty/],
      [{ items: [{ sourcePath: '/local/src', targetPath: '/local/src/inner' }] }, 400, /into itself/],
      [{ items: [{ sourcePath: '/local/src', targetPath: '/local/src' }] }, 400, /into itself/],
      [{ items: [{ sourcePath: '/local/src', targetPath: '/s3/../etc' }] }, 400, /targetPath/],
      [{ items: [{ sourcePath: '/local/%2e%2e/x', targetPath: '/s3/x' }] }, 400, /sourcePath/],
      [{ items: [{ sourcePath: '/local/nope.txt', targetPath: '/s3/x' }] }, 404, /./],
      [{ items: [{ sourcePath: '/local/one.txt', targetPath: '/nowhere/x' }] }, 404, /no mount/],
      [{ items: [{ sourcePath: '/local/one.txt', targetPath: '/s3' }] }, 400, /mount point/],
      [{ items: [{ sourcePath: '/local/one.txt', targetPath: '/local/src' }] }, 409, /already exists as a folder/],
      [{ items: [{ sourcePath: '/local/one.txt', targetPath: '/s3/x' }], extra: 1 }, 400, /unknown field/],
    ];
    for (const [body, status, message] of bad) {
      const res = await copy(body);
      expectEnvelope(res.body, status);
      expect(res.body.message).toMatch(message);
    }
    const viewOnly = await createPathKey(server, token, Permission.MOUNT_VIEW);
    expectEnvelope(
      (await copy({ items: [{ sourcePath: '/local/one.txt', targetPath: '/s3/x' }] }, { apiKey: viewOnly })).body,
      403,
    );
    const confined = await createPathKey(server, token, Permission.MOUNT_VIEW | Permission.MOUNT_COPY, '/local');
    const outside = await copy(
      { items: [{ sourcePath: '/local/one.txt', targetPath: '/s3/x' }] },
      { apiKey: confined },
    );
    expectEnvelope(outside.body, 403);
    expect(outside.body.message).toMatch(/no permission for this path/);
    expect((await server.call<{ total: number }>('GET', '/api/fs/tasks', { token })).body.data?.total).toBe(before);
    expect(await fileExists(server, '/s3/x')).toBe(false);
    // The confined key copies inside its base path, and sees only its own tasks.
    const inside = await copy(
      { items: [{ sourcePath: '/local/one.txt', targetPath: '/local/k.txt' }] },
      { apiKey: confined },
    );
    expect(inside.status).toBe(202);
    const mine = await server.call<{ total: number }>('GET', '/api/fs/tasks', { apiKey: confined });
    expect(mine.body.data?.total).toBe(1);
  });

  it('checks copy targets as writes: MOUNT_COPY and the base path, no file in the way, no virtual folder', async () => {
    await putFile(server, '/local/blocker.txt', 'a file, not a folder');
    const before = (await server.call<{ total: number }>('GET', '/api/fs/tasks', { token })).body.data?.total;
    // A file where a parent folder of the target must be: 409 up front, no task (on S3 too).
    await putFile(server, '/s3/blocker.txt', 'a file, not a folder');
    for (const targetPath of ['/local/blocker.txt/inner/one.txt', '/s3/blocker.txt/one.txt']) {
      const res = await copy({ items: [{ sourcePath: '/local/one.txt', targetPath }] });
      expectEnvelope(res.body, 409);
      expect(res.body.message).toMatch(/a file is in the way/);
    }
    // The root and virtual folders hold no files.
    const root = await copy({ items: [{ sourcePath: '/local/src', targetPath: '/' }] });
    expectEnvelope(root.body, 400);
    // The copy bit is what a copy target needs: upload alone does not grant it, copy alone does.
    const uploadOnly = await createPathKey(server, token, Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD, '/local');
    const denied = await copy(
      { items: [{ sourcePath: '/local/one.txt', targetPath: '/local/by-upload-key.txt' }] },
      { apiKey: uploadOnly },
    );
    expectEnvelope(denied.body, 403);
    expect(denied.body.message).toMatch(/mount_copy/);
    // A key confined to /local/team may not copy into /local/team-b (the base path is checked on the target).
    await putFile(server, '/local/team/t.txt', 'team');
    const team = await createPathKey(server, token, Permission.MOUNT_VIEW | Permission.MOUNT_COPY, '/local/team');
    const sideways = await copy(
      { items: [{ sourcePath: '/local/team/t.txt', targetPath: '/local/team-b/t.txt' }] },
      { apiKey: team },
    );
    expectEnvelope(sideways.body, 403);
    expect(sideways.body.message).toMatch(/no permission for this path/);
    // batch-copy-commit checks its targets the same way.
    const commit = await server.call('POST', '/api/fs/batch-copy-commit', {
      apiKey: uploadOnly,
      body: { targetMountId: s3Id, files: [{ targetPath: '/local/one.txt' }] },
    });
    expectEnvelope(commit.body, 403);
    expect((await server.call<{ total: number }>('GET', '/api/fs/tasks', { token })).body.data?.total).toBe(before);
    expect(await fileExists(server, '/local/team-b/t.txt')).toBe(false);
    expect(await fileExists(server, '/local/by-upload-key.txt')).toBe(false);
    // Inside its base path the copy key works, and the task's items are checked again as writes when they run.
    const inside = await copy(
      { items: [{ sourcePath: '/local/team/t.txt', targetPath: '/local/team/copy/t.txt' }] },
      { apiKey: team },
    );
    expect(inside.status).toBe(202);
    const done = await waitForTask(server, token, inside.body.data?.task.id as string);
    expect(done.status).toBe('completed');
    expect((await readFile(server, '/local/team/copy/t.txt')).toString()).toBe('team');
  });

  it('batch-copy-commit checks files a client copied itself and makes them searchable', async () => {
    await putFile(server, '/s3/client/copied.txt', 'by the browser');
    const commit = (body: unknown) =>
      server.call<{ committed: Array<{ path: string }>; failed: unknown[] }>('POST', '/api/fs/batch-copy-commit', {
        token,
        body,
      });
    const res = await commit({
      targetMountId: s3Id,
      files: [{ targetPath: '/s3/client/copied.txt', fileSize: 14 }, { targetPath: '/s3/client/missing.txt' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data?.committed.map((e) => e.path)).toEqual(['/s3/client/copied.txt']);
    expect(res.body.data?.failed).toHaveLength(1);
    expectEnvelope((await commit({ targetMountId: s3Id, files: [{ targetPath: '/local/one.txt' }] })).body, 400);
    expectEnvelope((await commit({ targetMountId: 'nope-nope', files: [{ targetPath: '/s3/x' }] })).body, 404);
    expectEnvelope((await commit({ targetMountId: s3Id, files: [{ targetPath: '/s3/../x' }] })).body, 400);
    await server.built.services.search.settled();
    const found = await server.call<{ items: Array<{ path: string }> }>('GET', '/api/fs/search?q=copied.txt', {
      token,
    });
    expect(found.body.data?.items.map((h) => h.path)).toEqual(['/s3/client/copied.txt']);
  });

  it(
    'a server restart during a task hands it back; the next start resumes and completes it',
    async () => {
      const gate = gateAt(server.built.services.copies, 10);
      const started = await copy({ items: [{ sourcePath: '/local/src', targetPath: '/s3/restart' }] });
      const id = started.body.data?.task.id as string;
      await gate.atGate;
      const { dataDir, schema } = server;
      await server.close();
      gate.restore();
      server = await startTestServer(target, {}, { reuse: { dataDir, ...(schema ? { schema } : {}) } });
      token = await server.login();
      const done = await waitForTask(server, token, id);
      expect(done).toMatchObject({ status: 'completed', done_files: FILES, failed_files: 0 });
      await expectCopied(server, '/local/src', '/s3/restart');
    },
    COPY_TASK_LIMIT_MS,
  );
});
