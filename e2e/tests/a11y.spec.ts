import { createKey, Perm, uniqueName } from '../support/api';
import { seriousViolations } from '../support/axe';
import { expect, seedStorage, test } from '../support/fixtures';

// Automated WCAG 2.1 AA checks (axe-core) of the shell's main screens in both themes.
for (const theme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${theme}`, () => {
    test(`home and login (${theme})`, async ({ page }) => {
      await seedStorage(page, { themeMode: theme, language: 'en' });
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto('/admin');
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test(`key management and its dialog (${theme})`, async ({ page, token }) => {
      await createKey(token, { name: uniqueName('a11y'), permissions: Perm.TEXT | Perm.MOUNT_VIEW, is_guest: 1 });
      await seedStorage(page, { themeMode: theme, language: 'zh-CN', admin_token: token });
      await page.goto('/admin/key-management');
      await expect(page.getByTestId('key-row').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: '新建密钥' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('key-card').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
