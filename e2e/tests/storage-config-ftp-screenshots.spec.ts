// Screenshots of the ftp storage type's form (TLS mode select, inline checks) and card, and of the Test results
// with every step and its latency: all passing (the built-in local storage) and a connect failure naming the steps
// that did not run (an FTP server that is not there).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-ftp-shots';

test.describe('ftp storage config: form, card and Test steps', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await call('POST', '/s3-configs', {
      token,
      body: {
        storage_type: 'ftp',
        name: 'Hosting FTP',
        host: '127.0.0.1',
        port: 9,
        tls: 'explicit',
        username: 'me',
        password: 'ftp-password-123',
        default_folder: 'shares',
      },
    });
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const lang of ['zh-CN', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string, fullPage = false) =>
            page.screenshot({ path: path.join(out, `${name}-${suffix}.png`), fullPage });
          const en = lang === 'en';

          await page.goto('/admin/storage-config');
          const card = page.getByTestId('storage-card').filter({ hasText: 'Hosting FTP' });
          await expect(card).toContainText('127.0.0.1:9');
          await expect(card).not.toContainText('ftp-password');
          await card.getByRole('button', { name: en ? 'Test' : '测试', exact: true }).click();
          const failed = card.getByTestId('storage-test-result');
          await expect(failed).toHaveAttribute('data-success', 'false', { timeout: 20_000 });
          await expect(failed.getByTestId('storage-test-step')).toHaveCount(5);
          await expect(failed.locator('[data-skipped="true"]')).toHaveCount(4);
          await card.scrollIntoViewIfNeeded();
          await shot('ftp-card-test-failed');

          const local = page.getByTestId('storage-card').filter({ hasText: en ? 'Local storage' : '本地存储' });
          await local.getByRole('button', { name: en ? 'Test' : '测试', exact: true }).click();
          const passed = local.getByTestId('storage-test-result');
          await expect(passed).toHaveAttribute('data-success', 'true', { timeout: 20_000 });
          await expect(passed.getByTestId('storage-test-step')).toHaveCount(5);
          await expect(passed).toContainText(en ? 'Connect' : '连接');
          await expect(passed).toContainText(en ? 'List' : '列出');
          await local.scrollIntoViewIfNeeded();
          await shot('local-test-passed');

          await page.getByRole('button', { name: en ? 'Add storage' : '添加存储' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel(en ? 'Storage type' : '存储类型').selectOption('ftp');
          await dialog.getByLabel(en ? 'Name' : '名称', { exact: true }).fill('Office FTP');
          await dialog.getByLabel(en ? 'Server' : '服务器').fill('ftp://files.example.com');
          await dialog.getByLabel(en ? 'Encryption (TLS)' : '加密（TLS）').selectOption('implicit');
          await expect(dialog.getByLabel(en ? 'Port' : '端口')).toHaveValue('990');
          await dialog.getByRole('button', { name: en ? 'Create' : '创建' }).click();
          await expect(dialog.getByText(en ? /without ftp:\/\// : /不含 ftp:\/\//).first()).toBeVisible();
          await shot('storage-form-ftp');
          await page.keyboard.press('Escape');

          await card.getByRole('button', { name: en ? 'Edit Hosting FTP' : '编辑 Hosting FTP' }).click();
          await expect(dialog).toBeVisible();
          await expect(dialog.getByLabel(en ? 'Server' : '服务器')).toHaveValue('127.0.0.1');
          await expect(dialog.getByPlaceholder(en ? 'Unchanged' : '未更改')).toBeVisible();
          await shot('storage-form-ftp-edit');
        });
      }
    }
  }
});
