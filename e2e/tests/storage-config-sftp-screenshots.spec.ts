import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;
const FINGERPRINT = 'uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s';

test.describe('sftp storage config: form and card', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await call('POST', '/s3-configs', {
      token,
      body: {
        storage_type: 'sftp',
        name: 'Backup server',
        host: '127.0.0.1',
        port: 9,
        username: 'clipnest',
        password: 'ssh-password-123',
        host_key_sha256: `SHA256:${FINGERPRINT}`,
        root_folder: '/srv/share',
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
          const card = page.getByTestId('storage-card').filter({ hasText: 'Backup server' });
          await expect(card).toContainText('127.0.0.1:22'.replace('22', '9'));
          await expect(card).toContainText(`SHA256:${FINGERPRINT}`);
          await expect(card).not.toContainText('ssh-password');
          await card.scrollIntoViewIfNeeded();
          await shot('sftp-card');

          await page.getByRole('button', { name: en ? 'Add storage' : '添加存储' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel(en ? 'Storage type' : '存储类型').selectOption('sftp');
          await dialog.getByLabel(en ? 'Name' : '名称', { exact: true }).fill('Office SSH');
          await dialog.getByLabel(en ? 'Server' : '服务器', { exact: true }).fill('sftp://nas.lan:22');
          await dialog.getByRole('button', { name: en ? 'Create' : '创建' }).click();
          await expect(dialog.getByText(/sftp:\/\//).first()).toBeVisible();
          await expect(dialog.getByText(en ? /Paste the private key/ : /请粘贴私钥/)).toBeVisible();
          await shot('storage-form-sftp');
          await page.keyboard.press('Escape');

          await card.getByRole('button', { name: en ? 'Edit Backup server' : '编辑 Backup server' }).click();
          await expect(dialog).toBeVisible();
          await expect(dialog.getByLabel(en ? 'Server' : '服务器', { exact: true })).toHaveValue('127.0.0.1');
          await expect(dialog.getByLabel(en ? 'Host key fingerprint (SHA256)' : '主机密钥指纹（SHA256）')).toHaveValue(
            `SHA256:${FINGERPRINT}`,
          );
          await shot('storage-form-sftp-edit');
        });
      }
    }
  }
});
