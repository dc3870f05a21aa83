import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ShareView, UploadRequestView } from '@clipnest/contract';
import { adminToken, call } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { lookThemes as themes, shot as lookShot } from '../support/looks';
import { localStorage, mount } from '../support/mounts';

const out = process.env.REQUESTS_SHOTS_DIR ?? '/tmp/upload-request-shots';
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

/** /r/{slug} (an upload link, used without logging in) and a bundle's /s/{slug}. */
test.describe('upload requests and bundles', () => {
  let open: UploadRequestView;
  let locked: UploadRequestView;
  let bundle: ShareView;
  let token: string;

  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    token = await adminToken();
    const { config } = await localStorage(token, `inbox-${Date.now().toString(36)}`);
    const mountPath = `/inbox${Date.now().toString(36)}`;
    await mount(token, 'inbox', mountPath, config.id);
    const make = async (body: Record<string, unknown>) => {
      const res = await call<UploadRequestView>('POST', '/upload-requests', { token, body });
      if (res.status !== 201) throw new Error(`upload request: ${res.status} ${res.envelope.message}`);
      return res.envelope.data as UploadRequestView;
    };
    open = await make({
      target_path: mountPath,
      note: 'Please send the signed contract and the photos from Saturday.',
      max_files: 20,
      max_file_bytes: 1024,
      expires_in: 168,
    });
    locked = await make({ target_path: mountPath, password: 'inbox-2026', note: 'Private inbox' });
    const form = new FormData();
    form.append('bundle', 'true');
    form.append('remark', 'Slides and notes of the talk');
    form.append('file', new Blob(['# Talk\n\nSlides follow.\n']), 'README.md');
    form.append('file', new Blob(['Questions from the audience\n']), 'questions.txt');
    form.append('file', new Blob(['a,b\n1,2\n']), 'numbers.csv');
    const res = await fetch(`${BASE_URL}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as { data: ShareView };
    if (res.status !== 201) throw new Error(`bundle: ${res.status}`);
    bundle = body.data;
  });

  test('sends files through the link, refuses one over the limit, asks for the password', async ({ page }) => {
    for (const width of widths) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await seedStorage(page, { language: 'en' });
      await page.goto(`/r/${open.slug}`);
      await expect(page.getByTestId('upload-request')).toContainText('signed contract');
      await expect(page.getByText('Admin Panel')).toHaveCount(0);
      await page.getByTestId('request-input').setInputFiles([
        { name: 'contract.txt', mimeType: 'text/plain', buffer: Buffer.from('signed') },
        { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4096, 1) },
      ]);
      const items = page.getByTestId('request-item');
      await expect(items.filter({ hasText: 'contract.txt' })).toContainText(/Sent/);
      await expect(items.filter({ hasText: 'huge.bin' })).toContainText('not sent');
    }
    // The file button is reachable from the keyboard.
    await page.goto(`/r/${open.slug}`);
    const picker = page.getByRole('button', { name: /Drop files here/ });
    await picker.focus();
    await expect(picker).toBeFocused();
    await page.goto(`/r/${locked.slug}`);
    await expect(page.getByTestId('password-prompt')).toBeVisible();
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('password-prompt')).toContainText(/wrong/i);
    await page.getByLabel('Password').fill('inbox-2026');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('upload-request')).toContainText('Private inbox');
    await page
      .getByTestId('request-input')
      .setInputFiles([{ name: 'private.txt', mimeType: 'text/plain', buffer: Buffer.from('secret') }]);
    await expect(page.getByTestId('request-item')).toContainText(/Sent/);
  });

  test('a bundle lists its files on /s/{slug}', async ({ page }) => {
    await seedStorage(page, { language: 'en' });
    await page.goto(`/s/${bundle.slug}`);
    await expect(page.getByRole('button', { name: /questions\.txt/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /numbers\.csv/ })).toBeVisible();
    await page.getByRole('button', { name: /questions\.txt/ }).click();
    await expect(page.getByTestId('share-file')).toContainText('Questions from the audience');
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`screenshots: ${theme}, ${lang}, ${width}px`, async ({ page }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string) => lookShot(page, path.join(out, `${name}-${suffix}.png`), true);
          await page.goto(`/r/${open.slug}`);
          await expect(page.getByTestId('upload-request')).toBeVisible();
          await page.getByTestId('request-input').setInputFiles([
            { name: `photo-${suffix}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from('jpeg') },
            { name: 'too-big.mov', mimeType: 'video/quicktime', buffer: Buffer.alloc(2048, 1) },
          ]);
          await expect(page.getByTestId('request-item').first()).not.toContainText('%');
          await expect(
            page.getByTestId('request-item').filter({ hasText: 'photo-' }).locator('svg.animate-spin'),
          ).toHaveCount(0);
          await shot('request');
          await page.goto(`/r/${locked.slug}`);
          await expect(page.getByTestId('password-prompt')).toBeVisible();
          await shot('request-password');
          await page.goto(`/s/${bundle.slug}`);
          await expect(page.getByRole('button', { name: /numbers\.csv/ })).toBeVisible();
          await shot('bundle');
        });
      }
    }
  }
});
