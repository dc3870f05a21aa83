// Screenshots of the storage config page after issue 35 point 15: Test results with the CORS step (allowed and
// blocked), the usage line and what it counts, and the message refusing to delete a config in use.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { arrangeStorageInUse, type StorageInUse } from '../support/storageInUse';
import { animationsFinished } from '../support/settle';

const out = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-test-shots';

test.describe('storage config test screenshots', () => {
  let setup: StorageInUse;
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    setup = await arrangeStorageInUse(await adminToken(), {
      used: 'Photos (R2)',
      unmounted: 'Archive (no CORS)',
      mountPath: '/photos',
    });
  });
  test.afterAll(async () => {
    await setup?.open.stop();
    await setup?.closed.stop();
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const lang of ['zh-CN', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          const en = lang === 'en';
          await page.goto('/admin/storage-config');
          for (const name of ['Archive (no CORS)', 'Photos (R2)']) {
            const card = page.getByTestId('storage-card').filter({ hasText: name });
            await card.getByRole('button', { name: en ? 'Test' : '测试', exact: true }).click();
            await expect(card.getByTestId('storage-test-cors')).toBeVisible({ timeout: 20_000 });
          }
          await page
            .getByTestId('storage-card')
            .filter({ hasText: 'Archive (no CORS)' })
            .getByTestId('storage-test-cors')
            .locator('summary')
            .click();
          await page.screenshot({ path: path.join(out, `storage-test-${suffix}.png`), fullPage: true });

          const card = page.getByTestId('storage-card').filter({ hasText: 'Photos (R2)' });
          await card.getByRole('button', { name: /: Photos \(R2\)$/ }).click();
          await page.getByRole('menuitem', { name: en ? 'Delete' : '删除' }).click();
          await page
            .getByRole('alertdialog')
            .getByRole('button', { name: en ? 'Delete' : '删除' })
            .click();
          await expect(page.getByText(en ? /1 file share and 1 mount/ : /1 个文件分享和 1 个挂载/)).toBeVisible();
          await animationsFinished(page); // the toast's entry animation
          await page.screenshot({ path: path.join(out, `storage-in-use-${suffix}.png`) });
        });
      }
    }
  }
});
