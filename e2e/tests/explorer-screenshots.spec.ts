import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, uniqueName } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, writeTree } from '../support/mounts';

const out = process.env.EXPLORER_SHOTS_DIR ?? '/tmp/explorer-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('explorer screenshots', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await deleteAllMounts(token);
    const { config, root } = await localStorage(token, uniqueName('team-files'));
    writeTree(root, {
      'Reports/2026-q3 quarterly report with a long name.txt': 'Quarterly numbers\n'.repeat(40),
      'Reports/notes.md': '# Notes\n\n- one\n- two',
      'Reports/budget.csv': 'a,b\n1,2',
      'Reports/Archive/old.txt': 'old',
    });
    const png = fileURLToPath(new URL('../../web/public/pwa-512.png', import.meta.url));
    for (let i = 1; i <= 6; i++) copyFileSync(png, path.join(root, 'Reports', `photo-${i}.png`));
    await mount(token, 'Team files', '/team', config.id);
    await mount(token, '照片', '/照片', config.id);
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string) => page.screenshot({ path: path.join(out, `${name}-${suffix}.png`) });
          const en = lang === 'en';

          await page.goto('/admin/mount-management');
          await expect(page.getByTestId('mount-row')).toHaveCount(2);
          await shot('mount-list');
          await page.getByRole('button', { name: en ? 'Add mount' : '添加挂载' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel(en ? 'Name' : '名称').fill('Scratch');
          await dialog.getByLabel(en ? 'Path' : '路径', { exact: true }).fill('/api/scratch');
          await expect(dialog.getByText(en ? /reserved/ : /保留/)).toBeVisible();
          await shot('mount-form');
          await page.keyboard.press('Escape');

          await page.goto('/mount-explorer');
          await expect(page.getByTestId('fs-entry')).toHaveCount(2);
          await shot('explorer-root');
          await page.goto('/mount-explorer/team/Reports');
          await expect(page.getByTestId('fs-entry').first()).toBeVisible();
          await shot('explorer-list');
          await page.getByTestId('fs-entry').nth(2).click({ button: 'right' });
          await expect(page.getByRole('menu')).toBeVisible();
          await shot('explorer-menu');
          await page.keyboard.press('Escape');
          await page.getByRole('radio', { name: en ? 'Grid view' : '网格视图' }).click();
          await expect(page.locator('img').first()).toBeVisible();
          await shot('explorer-grid');
          await page.getByRole('radio', { name: en ? 'Gallery view' : '画廊视图' }).click();
          await page.getByRole('button', { name: en ? 'Sort and view settings' : '排序和视图设置' }).click();
          await expect(page.getByTestId('gallery-settings')).toBeVisible();
          await shot('explorer-gallery');
          await page.keyboard.press('Escape');
          await page.getByRole('radio', { name: en ? 'List view' : '列表视图' }).click();
          await page.goto('/mount-explorer/team/Reports?preview=%2Fteam%2FReports%2Fnotes.md');
          await expect(page.getByTestId('fs-editor')).toBeVisible();
          await shot('explorer-editor');
        });
      }
    }
  }
});
