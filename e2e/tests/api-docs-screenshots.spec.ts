// The API reference page in light/dark, zh-CN/en, 390/1280 px (CLIPNEST_SHOTS=1 only).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.API_DOCS_SHOTS_DIR ?? '/tmp/api-docs-shots';

test.describe('API reference screenshots', () => {
  test.beforeAll(() => mkdirSync(out, { recursive: true }));
  for (const theme of ['light', 'dark'] as const) {
    for (const lang of ['zh-CN', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto('/api-docs');
          const op = page.locator('#operations-Pastes-getPastes');
          await op.locator('.opblock-summary').click();
          await expect(op.getByRole('button', { name: 'Try it out' })).toBeVisible();
          await page.screenshot({ path: path.join(out, `api-docs-${lang}-${theme}-${width}.png`) });
          await op.scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(out, `api-docs-${lang}-${theme}-${width}-op.png`) });
        });
      }
    }
  }
});
