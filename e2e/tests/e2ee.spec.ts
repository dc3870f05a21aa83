// End-to-end encrypted pastes (#25, docs/encryption.md): created on Home, opened in another browser context
// from the link; the browser never sends the key or the plaintext; missing/wrong key, wrong password, burn
// after reading; an encrypted file through multipart, downloaded and compared by SHA-256, refused once a
// byte is flipped in storage. Screenshots of the new states go to test-results/e2ee (light/dark, 390/1280).
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileView, ListPage } from '@clipnest/contract';
import type { Browser, Page, Request } from '@playwright/test';
import { call } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect as baseExpect, test } from '../support/fixtures';
import { shot } from '../support/looks';
import { deleteAllPastes } from '../support/pastes';
import { randomFile, sha256 } from '../support/uploads';

const expect = baseExpect.configure({ timeout: 15_000 });
const MARKER = 'MARKER-e2e-Wq4';

async function openInFreshContext(browser: Browser, link: string, options: { width?: number; dark?: boolean } = {}) {
  const width = options.width ?? 1280;
  const context = await browser.newContext({
    baseURL: BASE_URL,
    locale: 'en-US',
    viewport: { width, height: width < 600 ? 844 : 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.goto(link);
  return { page, close: () => context.close() };
}

/** Records every request body the page sends to the API. */
function recordBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('request', (request: Request) => {
    if (request.url().includes('/api/')) bodies.push(`${request.url()}\n${request.postData() ?? ''}`);
  });
  return bodies;
}

async function createEncrypted(
  page: Page,
  options: { content: string; remark?: string; password?: string; maxViews?: string },
): Promise<string> {
  await page.goto('/');
  await page.getByLabel('Paste content').fill(options.content);
  await page.getByRole('switch', { name: 'End-to-end encrypted' }).click();
  if (options.remark) await page.getByLabel('Remark').fill(options.remark);
  if (options.password) await page.getByRole('textbox', { name: /^Password/ }).fill(options.password);
  if (options.maxViews) await page.getByLabel('Max views').fill(options.maxViews);
  await page.getByRole('button', { name: 'Create link' }).click();
  const result = page.getByTestId('share-result');
  await expect(result).toBeVisible();
  await expect(result.getByText('End-to-end encrypted')).toBeVisible();
  return (await page.getByTestId('share-link').textContent())!.trim();
}

test.describe('end-to-end encrypted pastes', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeEach(async ({ token }) => {
    await deleteAllPastes(token);
  });

  test('created on Home, read in another context; the server never gets the key or the text', async ({
    adminPage: page,
    browser,
  }) => {
    const bodies = recordBodies(page);
    const link = await createEncrypted(page, {
      content: `# Launch codes\n\n${MARKER} **bold** <img src=x onerror="window.__xss=1">`,
      remark: `Remark ${MARKER}`,
      maxViews: '5',
    });
    const [withoutKey, key] = link.split('#') as [string, string];
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = bodies.join('\n');
    expect(sent).toContain('"encryption"');
    expect(sent).not.toContain(MARKER);
    expect(sent).not.toContain(key);
    await shot(page, 'test-results/e2ee/home-result-1280-light.png', true);

    const reader = await openInFreshContext(browser, link);
    const readerBodies = recordBodies(reader.page);
    await expect(reader.page.getByRole('heading', { level: 1, name: `Remark ${MARKER}` })).toBeVisible();
    await expect(reader.page.getByTestId('markdown-body').getByRole('heading', { name: 'Launch codes' })).toBeVisible();
    await expect(reader.page.getByTestId('markdown-body').locator('strong')).toHaveText('bold');
    await expect(reader.page.getByTestId('paste-encrypted')).toBeVisible();
    expect(await reader.page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(readerBodies.join('\n')).not.toContain(key);
    await shot(reader.page, 'test-results/e2ee/view-1280-light.png', true);
    await reader.close();

    const dark = await openInFreshContext(browser, link, { width: 390, dark: true });
    await expect(dark.page.getByTestId('paste-encrypted')).toBeVisible();
    await shot(dark.page, 'test-results/e2ee/view-390-dark.png', true);
    await dark.close();

    const missing = await openInFreshContext(browser, withoutKey);
    await expect(missing.page.getByRole('heading', { name: 'The link is missing its key' })).toBeVisible();
    await shot(missing.page, 'test-results/e2ee/missing-key-1280-light.png');
    await missing.close();

    const wrongKey = `${withoutKey}#${key.startsWith('A') ? 'B' : 'A'}${key.slice(1)}`;
    const wrong = await openInFreshContext(browser, wrongKey, { width: 390 });
    await expect(wrong.page.getByRole('heading', { name: 'This paste cannot be decrypted' })).toBeVisible();
    await expect(wrong.page.getByText(MARKER)).toHaveCount(0);
    await shot(wrong.page, 'test-results/e2ee/wrong-key-390-light.png');
    await wrong.close();
  });

  test('password + burn after reading: wrong password retried without a view, then gone', async ({
    adminPage: page,
    browser,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const link = await createEncrypted(page, { content: `One-time ${MARKER}`, password: 'open sesame', maxViews: '1' });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'test-results/e2ee/home-result-390-dark.png', true);

    const reader = await openInFreshContext(browser, link);
    await expect(reader.page.getByRole('heading', { name: 'This paste is encrypted with a password' })).toBeVisible();
    await reader.page.getByRole('textbox', { name: 'Password' }).fill('not it');
    await reader.page.getByRole('button', { name: 'Unlock' }).click();
    await expect(reader.page.getByText('Wrong password, or the link is incomplete.')).toBeVisible();
    await shot(reader.page, 'test-results/e2ee/password-1280-light.png');
    await reader.page.getByRole('textbox', { name: 'Password' }).fill('open sesame');
    await reader.page.getByRole('button', { name: 'Unlock' }).click();
    await expect(reader.page.getByText(`One-time ${MARKER}`)).toBeVisible();
    await expect(reader.page.getByText('This was the last view')).toBeVisible();
    await reader.close();

    const late = await openInFreshContext(browser, link);
    await expect(late.page.getByTestId('paste-gone')).toBeVisible();
    await late.close();
  });
});

test.describe('end-to-end encrypted files', () => {
  test.describe.configure({ timeout: 300_000 });
  // 20 MB by default (multipart: over two 5 MiB parts); E2EE_FILE_MB=200 for the full size.
  const sizeMb = Number(process.env.E2EE_FILE_MB ?? 20);

  test('a big encrypted file goes through multipart, is downloaded, decrypted and matches; a flipped byte is refused', async ({
    adminPage: page,
    browser,
    token,
  }) => {
    const big = randomFile('secret-e2ee.bin', sizeMb * 1024 * 1024);
    try {
      const bodies = recordBodies(page);
      await page.goto('/upload');
      await page.getByTestId('upload-input').setInputFiles(big.path);
      await page.getByRole('switch', { name: 'End-to-end encrypted' }).click();
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      const item = page.getByTestId('upload-item').filter({ hasText: 'secret-e2ee.bin' });
      await expect(item).toHaveAttribute('data-stage', 'completed', { timeout: 240_000 });
      const link = (await item.getByTestId('upload-link').getAttribute('href'))!;
      const [, key] = link.split('#') as [string, string];
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const sent = bodies.join('\n');
      expect(sent).toContain('/api/upload/multipart/init');
      expect(sent).toContain('encryption');
      expect(sent).not.toContain('secret-e2ee');
      expect(sent).not.toContain(key);
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'test-results/e2ee/upload-390-light.png', true);

      // The server holds a placeholder name and ciphertext.
      const slug = decodeURIComponent(new URL(link, BASE_URL).pathname.split('/').pop()!);
      const { envelope } = await call<ListPage<FileView>>('GET', '/files?limit=100&sort=created_at&order=desc', {
        token,
      });
      const row = envelope.data!.items.find((f) => f.slug === slug)!;
      expect(row.filename).toBe('encrypted.bin');
      expect(row.encryption?.kind).toBe('file');

      // Another browser (no File System Access API here: the Blob path) downloads and decrypts.
      const reader = await openInFreshContext(browser, 'about:blank');
      await reader.page.addInitScript(() => {
        delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
      });
      await reader.page.goto(link);
      await expect(reader.page.getByTestId('file-name')).toHaveText('secret-e2ee.bin');
      await expect(reader.page.getByTestId('file-encrypted')).toBeVisible();
      await shot(reader.page, 'test-results/e2ee/file-1280-light.png', true);
      const downloading = reader.page.waitForEvent('download', { timeout: 120_000 });
      await reader.page.getByTestId('e2ee-download').click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('secret-e2ee.bin');
      const saved = await download.path();
      expect(sha256(readFileSync(saved!))).toBe(big.sha256);
      await reader.close();

      // One byte flipped in storage, in a data record: the download is refused with a clear message.
      const objectPath = path.join(process.env.CLIPNEST_E2E_DATA_DIR!, 'storage', 'local', row.storage_path);
      const fd = openSync(objectPath, 'r+');
      const at = Math.floor(statSync(objectPath).size / 2);
      const one = Buffer.alloc(1);
      readSync(fd, one, 0, 1, at);
      one[0] = one[0]! ^ 0x01;
      writeSync(fd, one, 0, 1, at);
      closeSync(fd);
      const tampered = await openInFreshContext(browser, 'about:blank', { dark: true });
      await tampered.page.addInitScript(() => {
        delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
      });
      await tampered.page.goto(link);
      await tampered.page.getByTestId('e2ee-download').click();
      await expect(tampered.page.getByText('The encrypted file was altered')).toBeVisible({ timeout: 120_000 });
      await shot(tampered.page, 'test-results/e2ee/file-tampered-1280-dark.png', true);
      await tampered.close();

      // Without the fragment: the key is missing.
      const noKey = await openInFreshContext(browser, link.split('#')[0]!, { width: 390 });
      await expect(noKey.page.getByRole('heading', { name: 'The link is missing its key' })).toBeVisible();
      await noKey.close();
    } finally {
      big.cleanup();
    }
  });

  test('an encrypted multipart upload survives a reload: resumed with the same key, parts never re-sent, file intact', async ({
    adminPage: page,
    browser,
    token,
  }) => {
    const big = randomFile('resume-e2ee.bin', 30 * 1024 * 1024);
    try {
      // Slow part PUTs so that the reload lands mid-upload; remember what each finished part carried.
      let phase: 'before' | 'after' = 'before';
      const started: { n: number; phase: string }[] = [];
      const uploadedBefore = new Map<number, string>();
      await page.route('**/api/upload/multipart/part?**', async (route) => {
        const n = Number(new URL(route.request().url()).searchParams.get('part_number'));
        started.push({ n, phase });
        if (phase === 'before') await new Promise((r) => setTimeout(r, 1500));
        await route.continue().catch(() => undefined);
      });
      page.on('requestfinished', (request) => {
        const url = new URL(request.url());
        if (phase !== 'before' || request.method() !== 'PUT' || !url.pathname.endsWith('/multipart/part')) return;
        const n = Number(url.searchParams.get('part_number'));
        const body = request.postDataBuffer();
        void request.response().then((response) => {
          if (response?.ok() && body) uploadedBefore.set(n, sha256(body));
        });
      });
      const bodies = recordBodies(page);
      await page.goto('/upload');
      await page.getByTestId('upload-input').setInputFiles(big.path);
      await page.getByRole('switch', { name: 'End-to-end encrypted' }).click();
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      await expect.poll(() => uploadedBefore.size, { timeout: 90_000 }).toBeGreaterThanOrEqual(2);

      // The tab goes away mid-upload (a reload: nothing in memory survives).
      const done = new Map(uploadedBefore);
      phase = 'after';
      await page.reload();
      const resumeItem = page.getByTestId('resume-item').filter({ hasText: 'resume-e2ee.bin' });
      await expect(resumeItem).toBeVisible();
      await expect(resumeItem.getByTestId('resume-encrypted')).toBeVisible();
      await shot(page, 'test-results/e2ee/resume-offer-1280-light.png');
      await resumeItem.getByTestId('resume-input').setInputFiles(big.path);
      const item = page.getByTestId('upload-item').filter({ hasText: 'resume-e2ee.bin' });
      await expect(item).toHaveAttribute('data-stage', 'completed', { timeout: 180_000 });
      const link = (await item.getByTestId('upload-link').getAttribute('href'))!;
      const [, key] = link.split('#') as [string, string];
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // One session: no second init, and no part uploaded before the reload went again.
      const sent = bodies.join('\n');
      expect(sent.match(/\/api\/upload\/multipart\/init/g)).toHaveLength(1);
      expect(sent).not.toContain('resume-e2ee');
      expect(sent).not.toContain(key);
      const after = started.filter((s) => s.phase === 'after').map((s) => s.n);
      for (const n of done.keys()) expect(after, `part ${n} was sent again after the reload`).not.toContain(n);

      // The stored object holds the parts sent before the reload unchanged, and decrypts whole with the link.
      const slug = decodeURIComponent(new URL(link, BASE_URL).pathname.split('/').pop()!);
      const { envelope } = await call<ListPage<FileView>>('GET', '/files?limit=100&sort=created_at&order=desc', {
        token,
      });
      const row = envelope.data!.items.find((f) => f.slug === slug)!;
      const stored = readFileSync(path.join(process.env.CLIPNEST_E2E_DATA_DIR!, 'storage', 'local', row.storage_path));
      const partSize = 5 * 1024 * 1024;
      for (const [n, digest] of done) {
        expect(sha256(stored.subarray((n - 1) * partSize, n * partSize)), `part ${n}`).toBe(digest);
      }
      const reader = await openInFreshContext(browser, 'about:blank');
      await reader.page.addInitScript(() => {
        delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
      });
      await reader.page.goto(link);
      await expect(reader.page.getByTestId('file-name')).toHaveText('resume-e2ee.bin');
      const downloading = reader.page.waitForEvent('download', { timeout: 120_000 });
      await reader.page.getByTestId('e2ee-download').click();
      const saved = await (await downloading).path();
      expect(sha256(readFileSync(saved!))).toBe(big.sha256);
      await reader.close();
    } finally {
      big.cleanup();
    }
  });

  test('a small encrypted Markdown file is previewed after decryption in the browser', async ({
    adminPage: page,
    browser,
  }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-e2ee-md-'));
    const file = path.join(dir, 'notes-e2ee.md');
    writeFileSync(file, `# Private notes\n\n- ${MARKER}\n`);
    try {
      await page.goto('/upload');
      await page.getByTestId('upload-input').setInputFiles(file);
      await page.getByRole('switch', { name: 'End-to-end encrypted' }).click();
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      const item = page.getByTestId('upload-item').filter({ hasText: 'notes-e2ee.md' });
      await expect(item).toHaveAttribute('data-stage', 'completed', { timeout: 60_000 });
      const link = (await item.getByTestId('upload-link').getAttribute('href'))!;
      const reader = await openInFreshContext(browser, link, { width: 390, dark: true });
      await expect(reader.page.getByTestId('file-name')).toHaveText('notes-e2ee.md');
      await expect(reader.page.getByRole('heading', { name: 'Private notes' })).toBeVisible();
      await expect(reader.page.getByText(MARKER)).toBeVisible();
      await shot(reader.page, 'test-results/e2ee/file-md-390-dark.png', true);
      await reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
