import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';

const out = process.env.STORAGE_SHOTS_DIR ?? '/tmp/storage-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('storage config screenshots', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await call('POST', '/s3-configs', {
      token,
      body: {
        name: 'Team bucket (R2)',
        provider: 'cloudflare_r2',
        endpoint: 'http://127.0.0.1:9',
        region: 'auto',
        bucket: 'team-share',
        access_key_id: 'AKIAEXAMPLE',
        secret_access_key: 'secret-example-1234',
        path_style: true,
      },
    });
    await call('POST', '/s3-configs', {
      token,
      body: {
        storage_type: 'local',
        name: 'Project archive',
        root_path: `${process.env.CLIPNEST_E2E_DATA_DIR}/storage/projects/archive-2026`,
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
          await expect(page.getByTestId('storage-card')).toHaveCount(3);
          await shot('storage-list', true);

          await page.getByRole('button', { name: en ? 'Add storage' : '添加存储' }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByLabel(en ? 'Storage type' : '存储类型').selectOption('local');
          await dialog.getByLabel(en ? 'Name' : '名称').fill('Team folder');
          await dialog.getByLabel(en ? 'Root folder' : '根目录').fill('relative/folder');
          await dialog.getByRole('button', { name: en ? 'Create' : '创建' }).click();
          await expect(dialog.getByText(en ? /absolute path/ : /绝对路径/).first()).toBeVisible();
          await shot('storage-form-local');
          await page.keyboard.press('Escape');

          const s3card = page.getByTestId('storage-card').filter({ hasText: 'Team bucket' });
          await s3card.getByRole('button', { name: en ? 'Edit Team bucket (R2)' : '编辑 Team bucket (R2)' }).click();
          await expect(dialog).toBeVisible();
          await expect(dialog.getByPlaceholder(en ? 'Unchanged' : '未更改')).toBeVisible();
          await shot('storage-form-s3-edit');
        });
      }
    }
  }
});
