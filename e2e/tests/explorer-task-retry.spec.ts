import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FsListing, TaskView } from '@clipnest/contract';
import { adminToken, call, uniqueName } from '../support/api';
import { transferToMount } from '../support/explorer';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, s3Storage, writeTree } from '../support/mounts';
import { startS3rver, type S3rver } from '../support/s3rver';

/**
 * A proxy in front of the S3 emulator that the test steers: each object PUT waits `delayMs` (so a copy task is
 * slow enough to cancel midway), and PUTs of keys matching `failKeys` answer 500 (a file that fails).
 */
interface S3Proxy {
  endpoint: string;
  delayMs: number;
  failKeys: RegExp | null;
  puts: number;
  close: () => Promise<void>;
}

async function startProxy(upstream: string): Promise<S3Proxy> {
  const target = new URL(upstream);
  const state = { delayMs: 0, failKeys: null as RegExp | null, puts: 0 };
  const server = http.createServer((req, res) => {
    const isPut = req.method === 'PUT';
    if (isPut) state.puts++;
    if (isPut && state.failKeys?.test(decodeURIComponent(req.url ?? ''))) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<Error><Code>InternalError</Code><Message>injected by the test</Message></Error>');
      return;
    }
    // A PUT the server gave up on (the task was cancelled) is not passed on late, nor finished upstream.
    let abandoned = false;
    let upstream: http.ClientRequest | undefined;
    res.on('close', () => {
      if (res.writableEnded) return;
      abandoned = true;
      upstream?.destroy();
    });
    const forward = () => {
      if (abandoned) return;
      const upstreamReq = (upstream = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      ));
      upstreamReq.on('error', () => res.destroy());
      req.pipe(upstreamReq);
    };
    if (isPut && state.delayMs > 0) setTimeout(forward, state.delayMs);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as S3Proxy;
}

async function listNames(token: string, dir: string): Promise<string[]> {
  const { envelope } = await call<FsListing>('GET', `/fs/list?path=${encodeURIComponent(dir)}&refresh=true`, { token });
  return (envelope.data?.items ?? []).map((e) => e.name).sort();
}

async function tasks(token: string): Promise<TaskView[]> {
  const { envelope } = await call<{ items: TaskView[] }>('GET', '/fs/tasks', { token });
  return envelope.data?.items ?? [];
}

const FILES = 24;

test.describe('task manager: cancel and retry', () => {
  let s3: S3rver;
  let proxy: S3Proxy;

  test.beforeAll(async () => {
    s3 = await startS3rver();
    proxy = await startProxy(s3.endpoint);
    const token = await adminToken();
    await call('DELETE', '/fs/tasks/completed', { token });
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('retry-local'));
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) files[`slow/f${String(i).padStart(2, '0')}.txt`] = `file ${i} `.repeat(500);
    files['flaky/a.txt'] = 'alpha';
    files['flaky/bad.txt'] = 'fails the first time';
    files['flaky/c.txt'] = 'charlie';
    writeTree(local.root, files);
    await mount(token, 'Local', '/local', local.config.id);
    const config = await s3Storage(token, uniqueName('retry-s3'), { ...s3, endpoint: proxy.endpoint });
    await mount(token, 'Cloud', '/cloud', config.id);
  });

  test.afterAll(async () => {
    // Both tasks end completed after their retry; cleared so other specs' pages do not show them. A task a failed
    // attempt left cancelled or failed is finished first (clear completed leaves those).
    const token = await adminToken();
    proxy.delayMs = 0;
    proxy.failKeys = null;
    for (const task of await tasks(token)) {
      if (task.status !== 'completed') await call('POST', `/fs/tasks/${task.id}/retry`, { token });
    }
    await expect
      .poll(async () => (await tasks(token)).every((t) => t.status === 'completed'), { timeout: 30_000 })
      .toBe(true)
      .catch(() => undefined);
    await call('DELETE', '/fs/tasks/completed', { token });
    await proxy?.close();
    await s3?.stop();
  });

  test('a cross-mount copy cancelled midway stops, then a retry finishes it', async ({ adminPage: page }) => {
    const token = await adminToken();
    proxy.delayMs = 250;
    await page.goto('/mount-explorer/local');
    await transferToMount(page, 'slow', 'cloud');
    const task = page.getByTestId('fs-task').first();
    await expect(task.getByTestId('fs-task-title')).toHaveText('Copy slow to /cloud');
    await expect(task).toHaveAttribute('data-status', 'running', { timeout: 15_000 });
    // Some files are through, most are not.
    await expect.poll(async () => (await tasks(token))[0]?.done_files ?? 0, { timeout: 15_000 }).toBeGreaterThan(1);
    await task.getByRole('button', { name: 'Cancel Copy slow to /cloud' }).click();
    await expect(task).toHaveAttribute('data-status', 'cancelled', { timeout: 15_000 });
    await expect(task.getByTestId('fs-task-status')).toHaveText('Cancelled');
    const cancelled = (await tasks(token))[0]!;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.done_files).toBeGreaterThan(0);
    expect(cancelled.done_files).toBeLessThan(FILES);
    // Nothing more arrives once the cancel has settled (a file already on its way may still land): two reads a
    // second apart agree, and stay short of the whole folder.
    let before = -1;
    await expect
      .poll(
        async () => {
          const now = (await listNames(token, '/cloud/slow')).length;
          const settled = now === before;
          before = now;
          return settled;
        },
        { intervals: [1000], timeout: 15_000 },
      )
      .toBe(true);
    expect(before).toBeLessThan(FILES);

    proxy.delayMs = 0;
    await task.getByRole('button', { name: 'Retry Copy slow to /cloud' }).click();
    await expect(task).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
    await expect(task).toContainText(`${FILES} / ${FILES} files`);
    expect((await listNames(token, '/cloud/slow')).length).toBe(FILES);
  });

  test('a file that failed is shown failed and a retry copies it', async ({ adminPage: page }) => {
    const token = await adminToken();
    proxy.failKeys = /flaky\/bad\.txt/;
    await page.goto('/mount-explorer/local');
    await transferToMount(page, 'flaky', 'cloud');
    const task = page.locator('[data-testid="fs-task"][data-name="Copy flaky to /cloud"]');
    await expect(task).toHaveAttribute('data-status', /^(partial|failed)$/, { timeout: 30_000 });
    await expect(task).toContainText('1 failed');
    await task.getByRole('button', { name: 'Show files' }).click();
    const files = task.getByTestId('fs-task-files').locator('li');
    await expect(files.filter({ hasText: '/cloud/flaky/bad.txt' })).toHaveAttribute('data-status', 'failed');
    await expect(files.filter({ hasText: '/cloud/flaky/a.txt' })).toHaveAttribute('data-status', 'completed');
    expect(await listNames(token, '/cloud/flaky')).toEqual(['a.txt', 'c.txt']);

    proxy.failKeys = null;
    await task.getByRole('button', { name: 'Retry Copy flaky to /cloud' }).click();
    await expect(task).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
    await expect(files.filter({ hasText: '/cloud/flaky/bad.txt' })).toHaveAttribute('data-status', 'completed');
    expect(await listNames(token, '/cloud/flaky')).toEqual(['a.txt', 'bad.txt', 'c.txt']);
    const { body } = await fetch(
      `${new URL(page.url()).origin}/api/fs/download?path=${encodeURIComponent('/cloud/flaky/bad.txt')}`,
      { headers: { Authorization: `Bearer ${token}` } },
    ).then(async (r) => ({ body: await r.text() }));
    expect(body).toBe('fails the first time');
  });
});
