import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('rclone storage config: form and card', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await call('POST', '/s3-configs', {
      token,
      body: {
        storage_type: 'rclone',
        name: 'My OneDrive',
        rclone_config:
          '[onedrive]\ntype = onedrive\ntoken = {"access_token":"secret-token-xyz"}\ndrive_type = personal\n',
        default_folder: 'shares',
      },
    });
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string, fullPage = false) =>
            page.screenshot({ path: path.join(out, `${name}-${suffix}.png`), fullPage });
          const en = lang === 'en';

          await page.goto('/admin/storage-config');
          const card = page.getByTestId('storage-card').filter({ hasText: 'My OneDrive' });
          await expect(card).toContainText('[onedrive]');
          await expect(card).not.toContainText('secret-token');
          await card.scrollIntoViewIfNeeded();
          await shot('rclone-card');

          await page.getByRole('button', { name: en ? 'Add storage' : '添加存储' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel(en ? 'Storage type' : '存储类型').selectOption('rclone');
          await dialog.getByLabel(en ? 'Name' : '名称', { exact: true }).fill('Server disk');
          const section = dialog.getByLabel(en ? 'rclone config section' : 'rclone 配置段');
          await section.fill('[disk]\ntype = local\n');
          await dialog.getByRole('button', { name: en ? 'Create' : '创建' }).click();
          await expect(dialog.getByText(en ? /own disk/ : /自身的磁盘/).first()).toBeVisible();
          await expect(section).toBeFocused();
          await shot('storage-form-rclone');
          await page.keyboard.press('Escape');

          await card.getByRole('button', { name: en ? 'Edit My OneDrive' : '编辑 My OneDrive' }).click();
          await expect(dialog).toBeVisible();
          await expect(dialog.getByLabel(en ? 'rclone config section' : 'rclone 配置段')).toHaveValue('');
          await expect(dialog).toContainText('[onedrive]');
          await expect(dialog).not.toContainText('secret-token');
          await shot('storage-form-rclone-edit');
        });
      }
    }
  }
});
