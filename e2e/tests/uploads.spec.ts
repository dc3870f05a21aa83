import { mkdirSync } from 'node:fs';
import type { FileView, ListPage, SettingView, StorageConfigView } from '@clipnest/contract';
import type { Page } from '@playwright/test';
import { call, uniqueName } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';
import { shot } from '../support/looks';
import { createS3Config, randomFile, sha256, startFileServer, type FileServer } from '../support/uploads';
import { startS3rver, type S3rver } from '../support/s3rver';

const shots = process.env.UPLOADS_SHOTS_DIR ?? '/tmp/uploads-shots';
const MiB = 1024 * 1024;

/** The share behind the link shown in the queue, then its bytes through the download URL. */
async function downloadShare(token: string, link: string): Promise<{ file: FileView; bytes: Buffer }> {
  const slug = decodeURIComponent(new URL(link).pathname.split('/').pop()!);
  const { envelope } = await call<ListPage<FileView>>('GET', '/files?limit=100&sort=created_at&order=desc', { token });
  const file = envelope.data?.items.find((f) => f.slug === slug);
  if (!file) throw new Error(`share ${slug} not found`);
  const response = await fetch(new URL(file.download_url, BASE_URL), { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return { file, bytes: Buffer.from(await response.arrayBuffer()) };
}

function partNumberOf(url: string): number | null {
  const value = new URL(url).searchParams.get('partNumber');
  return value ? Number(value) : null;
}

test.describe('large uploads straight to S3 (s3rver with CORS)', () => {
  let s3: S3rver;
  let configName: string;

  test.beforeAll(async ({ token }) => {
    mkdirSync(shots, { recursive: true });
    s3 = await startS3rver({ bucket: 'e2e-uploads', cors: true });
    configName = uniqueName('Emulator CORS');
    await createS3Config(token, s3, configName);
  });

  test.afterAll(async () => {
    await s3?.stop();
  });

  async function pickTarget(page: Page) {
    await page.goto('/upload');
    const select = page.getByLabel('Storage');
    await expect(select).toBeVisible();
    await select.selectOption({ label: configName });
  }

  test('a 30 MB file goes to the bucket in parts, survives a reload and resumes without resending parts', async ({
    adminPage: page,
    token,
  }) => {
    test.setTimeout(180_000);
    const big = randomFile('big-e2e.bin', 30 * MiB);
    try {
      // The reload must land mid-upload: before it, only the first two parts reach the bucket; the others are
      // held until the reload and then dropped (a fixed delay let a busy machine finish all six first).
      const started: { n: number; phase: 'before' | 'after' }[] = [];
      const recordedBefore = new Set<number>();
      let phase: 'before' | 'after' = 'before';
      let reloading = () => {};
      const reloaded = new Promise<void>((resolve) => (reloading = resolve));
      await page.route(`${s3.endpoint}/**`, async (route) => {
        const request = route.request();
        const n = request.method() === 'PUT' ? partNumberOf(request.url()) : null;
        if (n !== null) {
          started.push({ n, phase });
          if (phase === 'before' && started.length > 2) {
            await reloaded;
            await route.abort().catch(() => undefined);
            return;
          }
          await new Promise((r) => setTimeout(r, 300));
        }
        await route.continue().catch(() => undefined);
      });
      const apiCalls: string[] = [];
      page.on('requestfinished', (request) => {
        const url = new URL(request.url());
        if (!url.pathname.startsWith('/api/upload/multipart')) return;
        apiCalls.push(`${phase} ${request.method()} ${url.pathname}`);
        // Parts are reported with the next sign-parts call (`completed`), the last ones on their own.
        if (phase === 'before' && request.method() === 'POST' && url.pathname.endsWith('/multipart/sign-parts')) {
          const reported = (request.postDataJSON() as { completed?: { PartNumber: number }[] }).completed ?? [];
          void request.response().then((response) => {
            if (response?.ok()) for (const p of reported) recordedBefore.add(p.PartNumber);
          });
        }
      });

      await pickTarget(page);
      await page.getByTestId('upload-input').setInputFiles(big.path);
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      const item = page.getByTestId('upload-item').filter({ hasText: 'big-e2e.bin' });
      await expect(item.getByTestId('upload-stage')).toHaveText('Uploading');
      await expect.poll(() => recordedBefore.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      await expect(item).toContainText(/\/s/); // speed shown
      await page.setViewportSize({ width: 1280, height: 900 });
      await shot(page, `${shots}/multipart-uploading-1280-light-en.png`);

      // Reload mid-upload: the parts recorded so far must never be sent again.
      const done = new Set(recordedBefore);
      phase = 'after';
      reloading();
      await page.reload();
      const resumeItem = page.getByTestId('resume-item').filter({ hasText: 'big-e2e.bin' });
      await expect(resumeItem).toBeVisible();
      await expect(resumeItem).toContainText(/of 6 parts/);
      await shot(page, `${shots}/multipart-resume-offer-1280-light-en.png`);
      await resumeItem.getByTestId('resume-input').setInputFiles(big.path);

      const resumed = page.getByTestId('upload-item').filter({ hasText: 'big-e2e.bin' });
      await expect(resumed).toHaveAttribute('data-stage', 'completed', { timeout: 120_000 });
      await expect(page.getByTestId('resume-item')).toHaveCount(0);

      const after = started.filter((s) => s.phase === 'after').map((s) => s.n);
      const before = started.filter((s) => s.phase === 'before').map((s) => s.n);
      expect(before.length).toBeGreaterThanOrEqual(2);
      for (const n of done) expect(after, `part ${n} was sent again after the reload`).not.toContain(n);
      // Every part reached the bucket at some point; the listing came from the server.
      expect(new Set([...before, ...after])).toEqual(new Set([1, 2, 3, 4, 5, 6]));
      expect(apiCalls).toContain('after GET /api/upload/multipart/parts');
      expect(apiCalls.filter((c) => c.endsWith('/multipart/init'))).toEqual(['before POST /api/upload/multipart/init']);

      const link = await resumed.getByTestId('upload-link').getAttribute('href');
      const { file, bytes } = await downloadShare(token, link!);
      expect(file.size).toBe(30 * MiB);
      expect(bytes.length).toBe(30 * MiB);
      expect(sha256(bytes)).toBe(big.sha256);
    } finally {
      big.cleanup();
    }
  });

  test('a small file goes to the bucket with one presigned PUT and a commit', async ({ adminPage: page, token }) => {
    const small = randomFile('small-e2e.bin', 300 * 1024);
    try {
      const puts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PUT' && request.url().startsWith(s3.endpoint)) puts.push(request.url());
      });
      await pickTarget(page);
      await page.getByTestId('upload-input').setInputFiles(small.path);
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      const item = page.getByTestId('upload-item').filter({ hasText: 'small-e2e.bin' });
      await expect(item).toHaveAttribute('data-stage', 'completed', { timeout: 30_000 });
      expect(puts).toHaveLength(1);
      expect(partNumberOf(puts[0]!)).toBeNull();
      const link = await item.getByTestId('upload-link').getAttribute('href');
      const { bytes } = await downloadShare(token, link!);
      expect(sha256(bytes)).toBe(small.sha256);
    } finally {
      small.cleanup();
    }
  });
});

test('on local storage a big file goes in parts through the server', async ({ adminPage: page, token }) => {
  const big = randomFile('local-parts.bin', 12 * MiB);
  try {
    const parts: string[] = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'PUT' && url.pathname === '/api/upload/multipart/part')
        parts.push(url.searchParams.get('part_number')!);
    });
    await page.goto('/upload');
    const { envelope } = await call<ListPage<StorageConfigView>>('GET', '/s3-configs?limit=200', { token });
    const local = envelope.data!.items.find((c) => c.storage_type === 'local')!;
    await page.getByLabel('Storage').selectOption(local.id);
    await page.getByTestId('upload-input').setInputFiles(big.path);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    const item = page.getByTestId('upload-item').filter({ hasText: 'local-parts.bin' });
    await expect(item).toHaveAttribute('data-stage', 'completed', { timeout: 60_000 });
    expect(parts.sort()).toEqual(['1', '2', '3']);
    const link = await item.getByTestId('upload-link').getAttribute('href');
    const { bytes } = await downloadShare(token, link!);
    expect(sha256(bytes)).toBe(big.sha256);
  } finally {
    big.cleanup();
  }
});

test('a file over the max upload size is refused at once, in red, never queued and never sent', async ({
  adminPage: page,
  token,
}) => {
  const setting = async (key: string) => {
    const { envelope } = await call<SettingView[]>('GET', '/admin/settings?group=1', { token });
    return envelope.data?.find((s) => s.key === key)?.value;
  };
  const previous = {
    max_upload_size: await setting('max_upload_size'),
    max_upload_size_unit: await setting('max_upload_size_unit'),
  };
  await call('PUT', '/admin/settings/group/1', { token, body: { max_upload_size: 1, max_upload_size_unit: 'MB' } });
  const over = randomFile('over-limit.bin', 2 * MiB);
  const under = randomFile('under-limit.bin', 100 * 1024);
  try {
    // Any request carrying the big file's name (presign, multipart init, form upload) would mean it was sent.
    const leaks: string[] = [];
    page.on('request', (request) => {
      if (request.postDataBuffer()?.includes('over-limit.bin')) leaks.push(`${request.method()} ${request.url()}`);
    });
    await page.goto('/upload');
    await page.getByTestId('upload-input').setInputFiles([over.path, under.path]);
    // Issue 35 point 18: not "Ready" with a green "2 files added": a red refusal naming it, and only the other added.
    await expect(page.locator('[data-sonner-toast][data-type="error"]')).toContainText(
      '“over-limit.bin” is larger than the upload limit (1 MB) and was not added',
    );
    await expect(page.locator('[data-sonner-toast][data-type="success"]')).toContainText('1 file added');
    await expect(page.getByTestId('upload-item').filter({ hasText: 'over-limit.bin' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    const accepted = page.getByTestId('upload-item').filter({ hasText: 'under-limit.bin' });
    await expect(accepted).toHaveAttribute('data-stage', 'completed', { timeout: 30_000 });
    await expect(page.getByTestId('upload-item')).toHaveCount(1);
    // Only the big file, alone: refused, nothing added, no green toast.
    await page.getByTestId('upload-input').setInputFiles([over.path]);
    await expect(
      page.locator('[data-sonner-toast][data-type="error"]').filter({ hasText: 'over-limit.bin' }).first(),
    ).toBeVisible();
    await expect(page.getByTestId('upload-item')).toHaveCount(1);
    expect(leaks).toEqual([]);
  } finally {
    await call('PUT', '/admin/settings/group/1', { token, body: previous });
    over.cleanup();
    under.cleanup();
  }
});

test.describe('upload from a URL', () => {
  let server: FileServer;
  const body = Buffer.alloc(3 * MiB);
  for (let i = 0; i < body.length; i++) body[i] = (i * 31 + 7) & 0xff;

  test.beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    server = await startFileServer({ 'dataset.bin': { body, type: 'application/octet-stream' } });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('analyze, rename, fetch on the server with visible progress, then the share has the bytes', async ({
    adminPage: page,
    token,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/upload');
    await page.getByRole('tab', { name: 'From URL' }).click();
    const input = page.getByLabel('File URL');

    // Client-side checks first, then the server's analysis.
    await page.getByRole('button', { name: 'Analyze' }).click();
    await expect(page.getByText('Enter a URL')).toBeVisible();
    await input.fill('ftp://example.com/a.bin');
    await page.getByRole('button', { name: 'Analyze' }).click();
    await expect(page.getByText('Only http and https links can be uploaded')).toBeVisible();

    await input.fill(server.url('dataset.bin'));
    await page.getByRole('button', { name: 'Analyze' }).click();
    const info = page.getByTestId('url-info');
    await expect(info).toContainText('dataset.bin');
    await expect(info).toContainText('3');
    await page.getByLabel('Save as').fill('renamed-dataset.bin');
    await page.getByRole('button', { name: 'Upload from URL' }).click();

    const progress = page.getByTestId('url-progress');
    await expect(progress).toHaveAttribute('data-phase', 'downloading');
    const bar = progress.getByRole('progressbar');
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const midway = Number(await bar.getAttribute('aria-valuenow'));
    expect(midway).toBeLessThan(100);
    await expect(progress).toHaveAttribute('data-phase', 'completed', { timeout: 60_000 });
    await expect(bar).toHaveAttribute('aria-valuenow', '100');

    const link = await page.getByTestId('url-link').getAttribute('href');
    const { file, bytes } = await downloadShare(token, link!);
    expect(file.filename).toBe('renamed-dataset.bin');
    expect(sha256(bytes)).toBe(sha256(body));
  });

  test('a URL upload can be cancelled while downloading', async ({ adminPage: page }) => {
    await page.goto('/upload');
    await page.getByRole('tab', { name: 'From URL' }).click();
    await page.getByLabel('File URL').fill(server.url('dataset.bin'));
    await page.getByRole('button', { name: 'Analyze' }).click();
    await page.getByRole('button', { name: 'Upload from URL' }).click();
    await expect(page.getByTestId('url-progress')).toHaveAttribute('data-phase', 'downloading');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByTestId('url-progress')).toHaveAttribute('data-phase', 'cancelled');
    await expect(page.getByText('Download cancelled').first()).toBeVisible();
  });

  test('an unreachable URL shows the server message', async ({ adminPage: page }) => {
    await page.goto('/upload');
    await page.getByRole('tab', { name: 'From URL' }).click();
    await page.getByLabel('File URL').fill(server.url('missing.bin'));
    await page.getByRole('button', { name: 'Analyze' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
  });
});
