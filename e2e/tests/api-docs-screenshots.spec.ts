// The API reference and the key page's integrations, zh-CN and en, 390/1280 px, light and dark
// (CLIPNEST_SHOTS=1 only): the page header's "API reference" link, the integrations dialog, /api-docs.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createKey, Perm, uniqueName } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.API_DOCS_SHOTS_DIR ?? '/tmp/api-docs-shots';

test.describe('API reference and integrations screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const lang of ['zh-CN', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          mkdirSync(out, { recursive: true });
          const en = lang === 'en';
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string) => page.screenshot({ path: path.join(out, `${name}-${suffix}.png`) });
          const key = await createKey(token, { name: uniqueName('sharex'), permissions: Perm.TEXT | Perm.FILE_SHARE });
          await page.setViewportSize({ width, height: 844 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto('/admin/key-management');
          await expect(page.getByRole('link', { name: en ? 'API reference' : 'API 参考' })).toBeVisible();
          await shot('keys');
          // A table row on desktop, a card on phones: the key's own "more actions" button either way.
          await page.getByRole('button', { name: `${en ? 'More actions' : '更多操作'}: ${key.name}` }).click();
          await page.getByRole('menuitem', { name: en ? 'Use in other apps' : '在其他应用中使用' }).click();
          await expect(page.getByTestId('key-integrations')).toBeVisible();
          await shot('key-integrations');
          await page.goto('/api-docs');
          await expect(page.locator('.opblock').first()).toBeVisible();
          await shot('api-docs');
        });
      }
    }
  }
});
