import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('webdav storage config: form and card', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await call('POST', '/s3-configs', {
      token,
      body: {
        storage_type: 'webdav',
        name: 'Home NAS',
        endpoint_url: 'http://127.0.0.1:9/remote.php/dav/files/me',
        username: 'me',
        password: 'nas-password-123',
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
          const card = page.getByTestId('storage-card').filter({ hasText: 'Home NAS' });
          await expect(card).toContainText('http://127.0.0.1:9/remote.php/dav/files/me');
          await expect(card).not.toContainText('nas-password');
          await card.scrollIntoViewIfNeeded();
          await shot('webdav-card');

          await page.getByRole('button', { name: en ? 'Add storage' : '添加存储' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel(en ? 'Storage type' : '存储类型').selectOption('webdav');
          await dialog.getByLabel(en ? 'Name' : '名称', { exact: true }).fill('Office NAS');
          await dialog.getByLabel(en ? 'WebDAV URL' : 'WebDAV 地址').fill('https://me:pw@nas.lan/dav');
          await dialog.getByRole('button', { name: en ? 'Create' : '创建' }).click();
          await expect(dialog.getByText(en ? /not in the URL/ : /不要写在地址里/).first()).toBeVisible();
          await shot('storage-form-webdav');
          await page.keyboard.press('Escape');

          await card.getByRole('button', { name: en ? 'Edit Home NAS' : '编辑 Home NAS' }).click();
          await expect(dialog).toBeVisible();
          await expect(dialog.getByLabel(en ? 'WebDAV URL' : 'WebDAV 地址')).toHaveValue(
            'http://127.0.0.1:9/remote.php/dav/files/me',
          );
          await expect(dialog.getByPlaceholder(en ? 'Unchanged' : '未更改')).toBeVisible();
          await shot('storage-form-webdav-edit');
        });
      }
    }
  }
});
