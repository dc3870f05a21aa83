import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { adminToken, seedSampleKeys } from '../support/api';
import { makePdf, makePng, uploadViaApi } from '../support/files';
import { expect, seedStorage, test } from '../support/fixtures';
import { createPaste, deleteAllPastes } from '../support/pastes';

// The admin lists (files, pastes, keys) and the settings pages, for looking at: every theme × language × width.
const out = process.env.ADMIN_SHOTS_DIR ?? '/tmp/admin-lists-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

/** Ticks the first two row (or card) checkboxes that are on screen. */
async function selectTwo(page: Page, testId: string) {
  const items = page.getByTestId(testId).filter({ visible: true });
  for (const i of [0, 1]) await items.nth(i).getByRole('checkbox').click();
}

test.describe('admin list and settings screenshots', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await seedSampleKeys(token, { name: 'photo-backup-with-a-rather-long-name', basic_path: '/photos/family/2026' });
    await deleteAllPastes(token);
    for (let i = 1; i <= 3; i++) {
      await createPaste(token, {
        content: `# Meeting notes ${i}\n\nAgenda and decisions for the weekly sync.`,
        remark: i === 1 ? 'Meeting notes with a long remark that has to be cut somewhere' : `Meeting notes ${i}`,
        max_views: i % 2 ? 0 : 10,
        expires_in: i === 3 ? 1 : 720,
        ...(i === 2 ? { password: 'pw' } : {}),
      });
    }
    await uploadViaApi(token, 'mountain-sunrise-over-the-lake-district.png', makePng(320, 200), 'image/png', {
      remark: 'Cover image for the spring newsletter',
    });
    await uploadViaApi(token, 'quarterly-report.pdf', makePdf(), 'application/pdf', { max_views: 10 });
    await uploadViaApi(token, 'contract-signed.pdf', makePdf('signed'), 'application/pdf', { password: 'pw' });
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          test.setTimeout(90_000);
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string, fullPage = true) =>
            page.screenshot({ path: path.join(out, `${name}-${suffix}.png`), fullPage });
          const list = width < 1280 ? 'card' : 'row';

          await page.goto('/admin/file-management');
          await expect(page.getByTestId(`file-${list}`).first()).toBeVisible();
          await shot('files');
          await selectTwo(page, `file-${list}`);
          await shot('files-selected', false);

          await page.goto('/admin/text-management');
          await expect(page.getByTestId(`paste-${list}`).first()).toBeVisible();
          await shot('texts');
          await selectTwo(page, `paste-${list}`);
          await page
            .getByTestId(`paste-${list}`)
            .filter({ visible: true })
            .first()
            .getByRole('button', { name: new RegExp(lang === 'en' ? 'More actions' : '更多操作') })
            .click();
          await expect(page.getByRole('menu')).toBeVisible();
          await shot('texts-menu', false);
          await page.keyboard.press('Escape');

          await page.goto('/admin/key-management');
          await expect(page.getByTestId(`key-${list}`).first()).toBeVisible();
          await shot('keys');

          for (const settings of ['global', 'site', 'preview', 'webdav']) {
            await page.goto(`/admin/settings/${settings}`);
            await expect(page.getByRole('button', { name: lang === 'en' ? 'Save' : '保存' })).toBeVisible();
            await shot(`settings-${settings}`);
          }
          await page.goto('/admin/settings/global');
          await page.locator('#setting-max_upload_size').fill('-1');
          await page.getByRole('button', { name: lang === 'en' ? 'Save' : '保存' }).click();
          await expect(page.getByRole('alert').first()).toBeVisible();
          await shot('settings-global-error');

          await page.goto('/admin/backup');
          await expect(page.getByTestId('backup-schedule').getByRole('switch')).toBeVisible();
          await shot('backup');
        });
      }
    }
  }
});
