import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';
import {
  HTML_ATTACK,
  makePdf,
  makePng,
  MARKDOWN_SAMPLE,
  startS3rver,
  SVG_ATTACK,
  uploadViaApi,
  type S3rver,
} from '../support/files';

/** Fails the test on any dialog (alert/confirm) a shared file might open. */
function forbidDialogs(page: Page, seen: string[]) {
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
}

async function pwned(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null).catch(() => null);
}

test.describe('file shares', () => {
  test('upload two files through the UI, then open one with its password in a fresh context and download it', async ({
    adminPage: page,
    browser,
  }) => {
    const png = makePng(480, 300);
    const notes = Buffer.from('hello from clipnest e2e\n'.repeat(20));
    await page.goto('/upload');
    await expect(page.getByRole('heading', { name: 'Upload files' })).toBeVisible();
    await page.getByTestId('upload-input').setInputFiles([
      { name: 'diagram.png', mimeType: 'image/png', buffer: png },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: notes },
    ]);
    await expect(page.getByTestId('upload-item')).toHaveCount(2);
    await page.getByLabel(/^Password/).fill('open-sesame');
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    await expect(page.locator('[data-testid="upload-item"][data-stage="completed"]')).toHaveCount(2, {
      timeout: 20_000,
    });
    // The recent-uploads list shows both.
    const recent = page.getByTestId('recent-uploads');
    await expect(recent.getByRole('link', { name: 'diagram.png' })).toBeVisible();
    await expect(recent.getByRole('link', { name: 'notes.txt' })).toBeVisible();

    const imageItem = page.getByTestId('upload-item').filter({ hasText: 'diagram.png' });
    const link = await imageItem.getByTestId('upload-link').textContent();
    expect(link).toMatch(/\/file\/[A-Za-z0-9_-]+$/);

    // A visitor: fresh context, no session.
    const visitorContext = await browser.newContext({ acceptDownloads: true, locale: 'en-US' });
    const visitor = await visitorContext.newPage();
    try {
      await visitor.goto(link!);
      await expect(visitor.getByTestId('password-prompt')).toBeVisible();
      await visitor.getByLabel('Password').fill('wrong');
      await visitor.getByRole('button', { name: 'Open file' }).click();
      await expect(visitor.getByRole('alert').filter({ hasText: /wrong password/i })).toBeVisible();
      await visitor.getByLabel('Password').fill('open-sesame');
      await visitor.getByRole('button', { name: 'Open file' }).click();
      await expect(visitor.getByTestId('file-name')).toHaveText('diagram.png');
      const img = visitor.getByTestId('image-preview');
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(480);

      const downloadPromise = visitor.waitForEvent('download');
      await visitor.getByTestId('download-link').click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe('diagram.png');
      const bytes = readFileSync((await download.path())!);
      expect(Buffer.compare(bytes, png)).toBe(0);
    } finally {
      await visitorContext.close();
    }
  });

  test('previews an image, a PDF and a Markdown file', async ({ page, token }) => {
    const image = await uploadViaApi(token, 'photo.png', makePng(640, 360), 'image/png');
    const pdf = await uploadViaApi(token, 'report.pdf', makePdf(), 'application/pdf');
    const md = await uploadViaApi(token, 'README.md', MARKDOWN_SAMPLE, 'text/markdown');
    const dialogs: string[] = [];
    forbidDialogs(page, dialogs);

    await page.goto(`/file/${image.slug}`);
    const img = page.getByTestId('image-preview');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(640);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect(page.getByText('640 × 360 · 150%')).toBeVisible();

    await page.goto(`/file/${pdf.slug}`);
    const frame = page.getByTestId('pdf-preview');
    await expect(frame).toBeVisible();
    const src = await frame.getAttribute('src');
    const response = await page.request.get(src!);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(Buffer.compare(await response.body(), makePdf())).toBe(0);

    await page.goto(`/file/${md.slug}`);
    const article = page.getByTestId('markdown-preview');
    await expect(article.getByRole('heading', { level: 1, name: 'Release notes' })).toBeVisible();
    await expect(article.locator('table td').first()).toHaveText('Preview');
    await expect(article.locator('script')).toHaveCount(0);
    await expect(article.locator('[onerror]')).toHaveCount(0);
    expect(await pwned(page)).toBeNull();
    expect(dialogs).toEqual([]);
  });

  test('an uploaded HTML file and an SVG with script never run script from their links', async ({ page, token }) => {
    const html = await uploadViaApi(token, 'attack.html', HTML_ATTACK, 'text/html');
    const svg = await uploadViaApi(token, 'attack.svg', SVG_ATTACK, 'image/svg+xml');
    const dialogs: string[] = [];
    forbidDialogs(page, dialogs);

    for (const file of [html, svg]) {
      // The share page: download only, no inline rendering.
      await page.goto(`/file/${file.slug}`);
      await expect(page.getByTestId('file-name')).toHaveText(file.filename);
      await page.waitForTimeout(300);
      expect(await pwned(page)).toBeNull();

      // The raw links, opened directly: attachment or sandboxed, never script in our origin.
      for (const raw of [`/api/file-view/${file.slug}`, `/api/file-download/${file.slug}`]) {
        const response = await page.request.get(`${BASE_URL}${raw}`);
        const headers = response.headers();
        expect(headers['x-content-type-options']).toBe('nosniff');
        const disposition = headers['content-disposition'] ?? '';
        const csp = headers['content-security-policy'] ?? '';
        expect(disposition.startsWith('attachment') || /sandbox/.test(csp), `${raw}: ${disposition} / ${csp}`).toBe(
          true,
        );
        try {
          await page.goto(`${BASE_URL}${raw}`, { waitUntil: 'load' });
          await page.waitForTimeout(300);
        } catch (error) {
          // A download navigation is aborted by the browser: nothing was rendered.
          expect(String(error)).toMatch(/Download is starting|net::ERR_ABORTED/);
        }
        expect(await pwned(page)).toBeNull();
      }
    }
    expect(dialogs).toEqual([]);
  });

  test('the file view shows full-page states for unknown and exhausted shares', async ({ page, token }) => {
    await page.goto('/file/no-such-share-xyz');
    await expect(page.getByTestId('file-error')).toHaveAttribute('data-kind', 'notFound');
    await expect(page.getByRole('heading', { name: 'File not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();

    const once = await uploadViaApi(token, 'once.txt', 'only once', 'text/plain', { max_views: 1 });
    await page.goto(`/file/${once.slug}`);
    await expect(page.getByTestId('text-preview')).toContainText('only once');
    await page.reload();
    await expect(page.getByTestId('file-error')).toHaveAttribute('data-kind', 'gone');
  });

  test.describe('storage configs', () => {
    let s3: S3rver;
    test.beforeAll(async () => {
      s3 = await startS3rver(Number(process.env.E2E_S3_PORT ?? 8813));
    });
    test.afterAll(async () => {
      await s3?.stop();
    });

    test('admin creates an S3 config from a preset, tests it and makes it the default', async ({
      adminPage: page,
      token,
    }) => {
      await page.goto('/admin/storage-config');
      await expect(page.getByTestId('storage-card').filter({ hasText: 'Local' })).toBeVisible();
      await page.getByRole('button', { name: 'Add storage' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Provider').selectOption('backblaze_b2');
      await expect(dialog.getByLabel('Endpoint')).toHaveValue('https://s3.us-west-004.backblazeb2.com');
      await dialog.getByLabel('Provider').selectOption('cloudflare_r2');
      await expect(dialog.getByLabel('Endpoint')).toHaveValue('https://<account_id>.r2.cloudflarestorage.com');
      await dialog.getByLabel('Provider').selectOption('minio');
      await dialog.getByLabel('Name').fill('Emulator');
      await dialog.getByLabel('Endpoint').fill(s3.endpoint);
      await dialog.getByLabel('Bucket').fill(s3.bucket);
      await dialog.getByLabel('Access key ID').fill('S3RVER');
      await dialog.getByLabel('Secret access key').fill('S3RVER');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();

      const card = page.getByTestId('storage-card').filter({ hasText: 'Emulator' });
      await expect(card).toContainText('••••');
      await card.getByRole('button', { name: 'Test' }).click();
      const result = card.getByTestId('storage-test-result');
      await expect(result).toHaveAttribute('data-success', 'true', { timeout: 20_000 });
      await expect(result.getByTestId('storage-test-step')).toHaveCount(3);
      await expect(result).toContainText(/\d+ ms/);

      await card.getByRole('button', { name: 'Set as default' }).click();
      await expect(card.getByText('Default', { exact: true })).toBeVisible();

      // The next upload lands in the emulator's bucket.
      const file = await uploadViaApi(token, 'to-s3.txt', 'stored in s3', 'text/plain');
      expect(file.provider_type).toBe('s3');
      const local = page.getByTestId('storage-card').filter({ hasText: 'Local' });
      await local.getByRole('button', { name: 'Set as default' }).click();
      await expect(local.getByText('Default', { exact: true })).toBeVisible();
    });
  });
});
