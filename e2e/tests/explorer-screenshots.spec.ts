import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, call, uniqueName } from '../support/api';
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
    // A finished copy task for the task manager (and search hits: copies are indexed at once).
    await call('POST', '/fs/batch-copy', {
      token,
      body: { items: [{ sourcePath: '/team/Reports/Archive', targetPath: '/照片/Archive copy' }] },
    });
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          test.setTimeout(120_000);
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
          // Server thumbnails (a few KB each) replace the placeholders.
          await expect(page.getByTestId('fs-thumb').first()).toBeVisible();
          await expect(page.getByTestId('fs-thumb')).toHaveCount(width < 600 ? 2 : 6);
          await shot('explorer-grid');
          await page.getByRole('radio', { name: en ? 'Gallery view' : '画廊视图' }).click();
          await page.getByRole('button', { name: en ? 'Sort and view settings' : '排序和视图设置' }).click();
          await expect(page.getByTestId('gallery-settings')).toBeVisible();
          await expect(page.getByTestId('fs-thumb').first()).toBeVisible();
          await shot('explorer-gallery');
          await page.keyboard.press('Escape');
          // A short window: the settings menu fits and scrolls.
          await page.setViewportSize({ width, height: width < 600 ? 500 : 600 });
          await page.getByRole('button', { name: en ? 'Sort and view settings' : '排序和视图设置' }).click();
          await page.getByTestId('gallery-settings').getByRole('button').scrollIntoViewIfNeeded();
          await shot('explorer-gallery-short');
          await page.keyboard.press('Escape');
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await page.getByRole('radio', { name: en ? 'List view' : '列表视图' }).click();
          await page.goto('/mount-explorer/team/Reports?preview=%2Fteam%2FReports%2Fnotes.md');
          await expect(page.getByTestId('fs-editor')).toBeVisible();
          await shot('explorer-editor');

          // Task manager and file basket (spec §3), then search and the copy target picker.
          const basketItems = ['notes.md', 'budget.csv'].map((name) => ({
            path: `/team/Reports/${name}`,
            name,
            size: 1200,
            folder: '/team/Reports',
            addedAt: '2026-01-01T00:00:00.000Z',
          }));
          await page.evaluate((items) => {
            window.localStorage.setItem('mount_explorer_basket', JSON.stringify(items));
          }, basketItems);
          await page.goto('/mount-explorer/team/Reports');
          await expect(page.getByTestId('fs-task').first()).toHaveAttribute('data-status', 'completed');
          await expect(page.getByTestId('fs-basket-item')).toHaveCount(2);
          await page.getByTestId('fs-task').first().getByRole('button').first().click();
          await expect(page.getByTestId('fs-task-files')).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          await shot('explorer-panels');
          await page.getByRole('button', { name: en ? 'Search' : '搜索', exact: true }).click();
          await page.getByTestId('fs-search').getByRole('searchbox').fill('old');
          await page.getByTestId('fs-search').getByRole('radio').first().click();
          await expect(page.getByTestId('fs-search-hit').first()).toBeVisible();
          await shot('explorer-search');
          await page.keyboard.press('Escape');
          await page.getByTestId('fs-entry').first().click({ button: 'right' });
          await page.getByRole('menuitem', { name: en ? 'Copy to…' : '复制到…' }).click();
          await expect(page.getByTestId('fs-folder-picker')).toBeVisible();
          await shot('explorer-copy-picker');
          await page.keyboard.press('Escape');
          await page.evaluate(() => window.localStorage.removeItem('mount_explorer_basket'));
        });
      }
    }
  }
});
