import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ShareView } from '@clipnest/contract';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { lookThemes as themes, shot as lookShot } from '../support/looks';
import { makePng, MARKDOWN_SAMPLE } from '../support/files';
import { localStorage, mount } from '../support/mounts';

const out = process.env.SHARES_SHOTS_DIR ?? '/tmp/folder-share-shots';
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

/** /s/{slug}: a shared folder, browsed by a visitor without logging in. */
test.describe('folder share page', () => {
  let open: ShareView;
  let locked: ShareView;
  let mountPath: string;

  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    const { config, root } = await localStorage(token, `shared-photos-${Date.now().toString(36)}`);
    const folder = path.join(root, 'Trip 2026');
    mkdirSync(path.join(folder, 'day-1'), { recursive: true });
    writeFileSync(path.join(folder, 'README.md'), MARKDOWN_SAMPLE);
    writeFileSync(path.join(folder, 'notes.txt'), 'Bring the tent.\nCheck the weather.\n');
    writeFileSync(path.join(folder, 'day-1', 'sunrise.png'), makePng(640, 360));
    writeFileSync(path.join(folder, 'day-1', 'route.txt'), 'North ridge, 12 km');
    mountPath = `/trips${Date.now().toString(36)}`;
    await mount(token, 'trips', mountPath, config.id);
    const make = async (body: Record<string, unknown>) => {
      const res = await call<ShareView>('POST', '/shares', {
        token,
        body: { path: `${mountPath}/Trip 2026`, ...body },
      });
      if (res.status !== 201) throw new Error(`share: ${res.status} ${res.envelope.message}`);
      return res.envelope.data as ShareView;
    };
    open = await make({ remark: 'Photos and notes from the ridge walk', expires_in: 168, max_downloads: 50 });
    locked = await make({ password: 'ridge-2026' });
  });

  test('password prompt, a subfolder, a preview and the zip (phone and desktop)', async ({ page }) => {
    for (const width of widths) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await seedStorage(page, { language: 'en' });
      await page.goto(`/s/${locked.slug}`);
      await expect(page.getByTestId('password-prompt')).toBeVisible();
      await page.getByLabel('Password').fill('wrong');
      await page.getByRole('button', { name: 'Open folder' }).click();
      await expect(page.getByTestId('password-prompt')).toContainText(/wrong/i);
      await page.getByLabel('Password').fill('ridge-2026');
      await page.getByRole('button', { name: 'Open folder' }).click();
      await expect(page.getByTestId('share-view')).toBeVisible();
      // No admin chrome on a visitor's page.
      await expect(page.getByText('Admin Panel')).toHaveCount(0);
      await page.getByRole('button', { name: 'day-1' }).click();
      await expect(page.getByTestId('share-breadcrumbs')).toContainText('day-1');
      await page.getByRole('button', { name: /route\.txt/ }).click();
      await expect(page.getByTestId('share-file')).toContainText('North ridge, 12 km');
      // The folder and the preview are in the address: back (a phone's back gesture) returns to the folder.
      await page.goBack();
      await expect(page.getByRole('button', { name: /route\.txt/ })).toBeVisible();
      await expect(page.getByTestId('share-file')).toHaveCount(0);
      await page.getByRole('button', { name: 'Trip 2026' }).click();
      await expect(page.getByRole('button', { name: /notes\.txt/ })).toBeVisible();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('share-zip').click()]);
      expect(download.suggestedFilename()).toBe('Trip 2026.zip');
      const saved = await download.path();
      expect(saved).toBeTruthy();
    }
  });

  test('the explorer shares a folder with options and a QR; file management lists and deletes it', async ({
    adminPage: page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedStorage(page, { language: 'en' });
    await page.goto(`/mount-explorer${mountPath}`);
    await page.locator('[data-testid="fs-entry"][data-name="Trip 2026"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Share folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share folder “Trip 2026”' });
    await dialog.getByRole('radio', { name: '7 days' }).click();
    await dialog.getByLabel('Max downloads').fill('4');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/shares') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create share link' }).click();
    const response = await created;
    expect(response.request().postDataJSON()).toEqual({
      path: `${mountPath}/Trip 2026`,
      expires_in: 168,
      max_downloads: 4,
    });
    const share = (await response.json()).data as ShareView;
    await expect(page.getByTestId('fs-link')).toHaveValue(new RegExp(`/s/${share.slug}$`));
    await expect(page.getByRole('dialog').locator('svg, canvas, img').last()).toBeVisible();
    await lookShot(page, path.join(out, 'explorer-share-folder-en-light-1280.png'));

    await page.goto('/admin/file-management');
    const section = page.getByTestId('folder-shares');
    await expect(section).toContainText(share.slug);
    await lookShot(page, path.join(out, 'manage-folder-shares-en-light-1280.png'), true);
    const item = section.locator('li', { hasText: share.slug });
    await item.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Delete' })
      .or(page.getByRole('dialog').getByRole('button', { name: 'Delete' }))
      .click();
    await expect(section).not.toContainText(share.slug);
    expect((await call('GET', `/shares/${share.slug}`)).status).toBe(404);
  });

  test('an unknown link shows a full-page state', async ({ page }) => {
    await seedStorage(page, { language: 'en' });
    await page.goto('/s/no-such-share');
    await expect(page.getByTestId('file-error')).toHaveAttribute('data-kind', 'notFound');
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`screenshots: ${theme}, ${lang}, ${width}px`, async ({ page }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string) => lookShot(page, path.join(out, `${name}-${suffix}.png`), true);
          await page.goto(`/s/${open.slug}`);
          await expect(page.getByTestId('share-entries')).toBeVisible();
          await shot('share-list');
          await page.getByRole('button', { name: lang === 'en' ? 'Grid' : '网格' }).click();
          await shot('share-grid');
          await page.getByRole('button', { name: 'day-1' }).click();
          await page.getByRole('button', { name: /sunrise\.png/ }).click();
          await expect(page.getByTestId('share-file').locator('img')).toBeVisible();
          await shot('share-preview');
          await page.goto(`/s/${locked.slug}`);
          await expect(page.getByTestId('password-prompt')).toBeVisible();
          await shot('share-password');
        });
      }
    }
  }
});
