// The key page's "Use in other apps" dialog in light/dark, zh-CN/en, 390/1280 px (CLIPNEST_SHOTS=1 only).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, createKey, deleteAllKeys, Perm } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.INTEGRATIONS_SHOTS_DIR ?? '/tmp/integrations-shots';

test.describe('key integrations screenshots', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await deleteAllKeys(token);
    await createKey(token, { name: 'screenshots', permissions: Perm.FILE_SHARE | Perm.TEXT });
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const lang of ['zh-CN', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: 844 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto('/admin/key-management');
          const more = lang === 'en' ? 'More actions: screenshots' : /screenshots/;
          await page.getByRole('button', { name: more }).last().click();
          await page.getByRole('menuitem', { name: lang === 'en' ? 'Use in other apps' : '在其他应用中使用' }).click();
          await expect(page.getByTestId('key-integrations')).toBeVisible();
          await page.screenshot({ path: path.join(out, `integrations-${lang}-${theme}-${width}.png`) });
        });
      }
    }
  }
});
