import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { call, createKey, Perm, uniqueName, type KeyView } from '../support/api';
import { seriousViolations } from '../support/axe';
import { BASE_URL } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { HTML_ATTACK, makePdf, makePng, MARKDOWN_SAMPLE, SVG_ATTACK, uploadViaApi } from '../support/files';
import { startS3rver, type S3rver } from '../support/s3rver';
import { afterPendingTasks, animationsFinished, imagesSettled } from '../support/settle';

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

    // Office documents go to the viewer named by the server (the third-party page is stubbed here).
    const docx = await uploadViaApi(
      token,
      'plan.docx',
      'not really a docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    await page.route(/view\.officeapps\.live\.com|docs\.google\.com/, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>viewer</p>' }),
    );
    await call('PUT', '/admin/settings/group/2', { token, body: { preview_office_provider: 'microsoft' } });
    try {
      await page.goto(`/file/${docx.slug}`);
      await expect(
        page.locator('iframe[src*="view.officeapps.live.com"], iframe[src*="docs.google.com"]'),
      ).toBeVisible();
    } finally {
      await call('PUT', '/admin/settings/group/2', { token, body: { preview_office_provider: 'builtin' } });
    }

    // A video the browser cannot decode says so (not "link expired") and offers the download.
    const video = await uploadViaApi(token, 'clip.mp4', Buffer.alloc(2048, 3), 'video/mp4');
    await page.goto(`/file/${video.slug}`);
    await expect(page.getByText('This browser cannot show this file')).toBeVisible();
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
      await imagesSettled(page);
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
          await afterPendingTasks(page);
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

  test('shows progress and speed while uploading, and cancel leaves no share', async ({ adminPage: page, token }) => {
    await page.goto('/upload');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // ~512 KB/s up: a 6 MB file takes long enough to watch and cancel.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    const name = `slow-${Date.now()}.bin`;
    await page
      .getByTestId('upload-input')
      .setInputFiles([{ name, mimeType: 'application/octet-stream', buffer: Buffer.alloc(6 * 1024 * 1024, 7) }]);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    const item = page.getByTestId('upload-item').filter({ hasText: name });
    await expect(item).toHaveAttribute('data-stage', 'uploading');
    const bar = item.getByRole('progressbar');
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect(item.getByText(/\/s/)).toBeVisible();
    await expect(item.getByText(/left$/)).toBeVisible();
    await item.getByRole('button', { name: `Cancel the upload of ${name}` }).click();
    await expect(item).toHaveAttribute('data-stage', 'cancelled');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const { envelope } = await call<{ items: { filename: string }[] }>('GET', `/files?search=${name}`, { token });
    expect(envelope.data?.items.filter((f) => f.filename === name)).toEqual([]);
  });

  test('pasting a file from the clipboard queues it', async ({ adminPage: page }) => {
    await page.goto('/upload');
    await expect(page.getByRole('heading', { name: 'Upload files' })).toBeVisible();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['pasted text'], 'image.png', { type: 'image/png' }));
      window.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(page.getByTestId('upload-item')).toHaveCount(1);
    await expect(page.getByTestId('upload-item')).toContainText(/pasted-\d{8}-\d{6}\.png/);

    // Dropping files on the zone queues them too.
    const zone = page.getByRole('button', { name: /Drop files here/ });
    const dataTransfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['a'], 'dropped-a.txt', { type: 'text/plain' }));
      data.items.add(new File(['b'], 'dropped-b.txt', { type: 'text/plain' }));
      return data;
    });
    await zone.dispatchEvent('dragenter', { dataTransfer });
    await expect(zone).toHaveAttribute('data-dragging', 'true');
    await zone.dispatchEvent('drop', { dataTransfer });
    await expect(page.getByTestId('upload-item')).toHaveCount(3);
    await expect(zone).not.toHaveAttribute('data-dragging', 'true');
  });

  test('upload needs an admin or a key with the file share permission', async ({ page, token }) => {
    await page.goto('/upload');
    await expect(page.getByText('Log in to upload files')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in or use an API key' })).toBeVisible();

    const textOnly = await createKey(token, { name: uniqueName('text-only'), permissions: Perm.TEXT });
    const sharer = await createKey(token, { name: uniqueName('sharer'), permissions: Perm.FILE_SHARE });
    const keyContext = async (key: KeyView) => {
      const context = await page.context().browser()!.newContext({ locale: 'en-US' });
      const p = await context.newPage();
      await seedStorage(p, {
        api_key: key.key,
        api_key_permissions: String(key.permissions),
        api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: key.basic_path }),
      });
      return { context, page: p };
    };
    const a = await keyContext(textOnly);
    await a.page.goto('/upload');
    await expect(a.page.getByText('Your API key does not have the file share permission.')).toBeVisible();
    await a.context.close();

    const b = await keyContext(sharer);
    await b.page.goto('/upload');
    await b.page
      .getByTestId('upload-input')
      .setInputFiles([{ name: 'from-key.txt', mimeType: 'text/plain', buffer: Buffer.from('key upload') }]);
    await b.page.getByRole('button', { name: 'Upload 1 file' }).click();
    await expect(b.page.locator('[data-testid="upload-item"][data-stage="completed"]')).toHaveCount(1);
    await b.context.close();
  });

  test('admin manages files: search, edit, batch delete with mode', async ({ adminPage: page, token }) => {
    const tag = `mgmt${Date.now().toString(36)}`;
    const a = await uploadViaApi(token, `${tag}-alpha.txt`, 'alpha', 'text/plain');
    const b = await uploadViaApi(token, `${tag}-beta.txt`, 'beta', 'text/plain');
    const c = await uploadViaApi(token, `${tag}-gamma.txt`, 'gamma', 'text/plain');
    await page.goto('/admin/file-management');
    await page.getByRole('searchbox').fill(tag);
    const rows = page.getByTestId('file-row');
    await expect(rows).toHaveCount(3);

    // Edit: new remark, a password and 5 max views.
    await page.getByRole('button', { name: `More actions: ${a.filename}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Remark/).fill('edited remark');
    await dialog.getByLabel('Password', { exact: true }).fill('new-pass');
    await dialog.getByLabel('Max views').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(rows.filter({ hasText: a.filename })).toContainText('0 / 5');
    const { envelope } = await call<{ remark: string; has_password: boolean }>('GET', `/files/${a.id}`, { token });
    expect(envelope.data).toMatchObject({ remark: 'edited remark', has_password: true });

    // Batch delete two, keeping their stored objects (record only).
    await page.getByRole('checkbox', { name: `Select ${b.filename}` }).check();
    await page.getByRole('checkbox', { name: `Select ${c.filename}` }).check();
    await page.getByRole('button', { name: 'Delete 2 files' }).click();
    await page.getByRole('radio', { name: 'Share only' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText(a.filename);
    const gone = await call('GET', `/public/files/${b.slug}`);
    expect(gone.status).toBe(404);
  });

  test('file screens have no serious accessibility violations', async ({ adminPage: page, token }) => {
    const md = await uploadViaApi(
      token,
      'a11y.md',
      '# Notes\n\nSome **text** and a [link](https://example.com).\n',
      'text/markdown',
    );
    const locked = await uploadViaApi(token, 'a11y-locked.txt', 'x', 'text/plain', { password: 'p' });
    for (const url of [
      '/upload',
      `/file/${md.slug}`,
      `/file/${locked.slug}`,
      '/file/missing-a11y',
      '/admin/file-management',
      '/admin/storage-config',
    ]) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
      // Colours that fade in would be measured midway.
      await animationsFinished(page);
      const violations = await seriousViolations(page);
      expect(violations, `${url}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
    }
  });

  test.describe('storage configs', () => {
    let s3: S3rver;
    test.beforeAll(async () => {
      s3 = await startS3rver();
    });
    test.afterAll(async () => {
      await s3?.stop();
    });

    test('admin creates an S3 config from a preset, tests it and makes it the default', async ({
      adminPage: page,
      token,
    }) => {
      await page.goto('/admin/storage-config');
      // Cards by their exact name: earlier specs leave configs whose names contain "local" or "emulator".
      const named = (name: string) =>
        page.getByTestId('storage-card').filter({ has: page.getByText(name, { exact: true }) });
      const builtin = named('Local storage');
      await expect(builtin).toBeVisible();
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

      const card = named('Emulator');
      await expect(card).toContainText('••••');
      await card.getByRole('button', { name: 'Test' }).click();
      const result = card.getByTestId('storage-test-result');
      await expect(result).toHaveAttribute('data-success', 'true', { timeout: 20_000 });
      await expect(result.getByTestId('storage-test-step')).toHaveCount(5);
      await expect(result).toContainText(/\d+ ms/);

      await card.getByRole('button', { name: 'Set as default' }).click();
      await expect(card.getByText('Default', { exact: true })).toBeVisible();

      // The next upload lands in the emulator's bucket.
      const file = await uploadViaApi(token, 'to-s3.txt', 'stored in s3', 'text/plain');
      expect(file.provider_type).toBe('s3');
      await builtin.getByRole('button', { name: 'Set as default' }).click();
      await expect(builtin.getByText('Default', { exact: true })).toBeVisible();

      // Edit with the secret left empty: the stored secret is kept, so the test still passes.
      await card.getByRole('button', { name: 'Edit Emulator' }).click();
      await expect(dialog.getByLabel('Secret access key')).toHaveValue('');
      await dialog.getByLabel('Name').fill('Emulator S3');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      const renamed = named('Emulator S3');
      await renamed.getByRole('button', { name: 'Test' }).click();
      await expect(renamed.getByTestId('storage-test-result')).toHaveAttribute('data-success', 'true');

      // A config that still holds a share cannot be deleted: the toast says why.
      await renamed.getByRole('button', { name: 'More actions: Emulator S3' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText(/is used by 1 file share/)).toBeVisible();
      await expect(renamed).toBeVisible();
    });

    test('admin adds a local folder inside the allowed roots; one outside is refused on its field', async ({
      adminPage: page,
    }) => {
      const allowed = `${process.env.CLIPNEST_E2E_DATA_DIR}/storage`; // LOCAL_STORAGE_ROOTS default
      await page.goto('/admin/storage-config');
      await page.getByRole('button', { name: 'Add storage' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Storage type').selectOption('local');
      await expect(dialog.getByLabel('Bucket')).toHaveCount(0);
      await dialog.getByLabel('Name').fill('Team folder');
      await dialog.getByLabel('Root folder').fill('team/share');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog.getByText('Enter an absolute path (starting with /) without "..".')).toBeVisible();
      await dialog.getByLabel('Root folder').fill('/etc/clipnest-e2e');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog.getByText(/must be inside one of the allowed roots/).first()).toBeVisible();
      await dialog.getByLabel('Root folder').fill(`${allowed}/team-share`);
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      const card = page.getByTestId('storage-card').filter({ hasText: 'Team folder' });
      await expect(card).toContainText(`${allowed}/team-share`);
      await card.getByRole('button', { name: 'Test' }).click();
      await expect(card.getByTestId('storage-test-result')).toHaveAttribute('data-success', 'true');
    });
  });
});
