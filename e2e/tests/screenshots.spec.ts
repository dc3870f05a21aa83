import { seedSampleKeys } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('screenshots', () => {
  test.beforeAll(async () => {
    const { adminToken } = await import('../support/api');
    const token = await adminToken();
    await seedSampleKeys(token);
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`home + key management, ${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;

          await page.goto('/');
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await page.screenshot({ path: path.join(artifacts, `home-${suffix}.png`), fullPage: true });

          await page.goto('/admin/key-management');
          await expect(page.getByText('photo-backup').filter({ visible: true }).first()).toBeVisible();
          await page.screenshot({ path: path.join(artifacts, `admin-keys-${suffix}.png`), fullPage: true });

          if (width === 1280) {
            await page.getByRole('button', { name: lang === 'en' ? 'New key' : '新建密钥' }).click();
            await expect(page.getByRole('dialog')).toBeVisible();
            await page.screenshot({ path: path.join(artifacts, `admin-key-dialog-${suffix}.png`) });
          }
        });
      }
    }
    test(`login, ${theme}`, async ({ page }) => {
      await seedStorage(page, { themeMode: theme, language: 'en' });
      for (const width of widths) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto('/admin');
        await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
        await page.screenshot({ path: path.join(artifacts, `login-en-${theme}-${width}.png`), fullPage: true });
      }
    });
  }
});
