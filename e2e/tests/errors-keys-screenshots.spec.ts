// Screens changed by issue 35 points 12 and 16, in light/dark, zh-CN/en, 390/1280 px (CLIPNEST_SHOTS=1 only):
// a wrong password, a used-up share, the storage test, the key form's base path (refused, picker), a key
// holder sent back into the base path, the sidebar's one sign-out.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminToken, call, createKey, Perm, uniqueName } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { uploadViaApi } from '../support/files';
import { ensureMount } from '../support/mounts';
import { createPaste } from '../support/pastes';

const out = process.env.ERRORS_SHOTS_DIR ?? '/tmp/errors-keys-shots';

test.describe('errors and keys screenshots', () => {
  let pasteSlug = '';
  let usedSlug = '';
  let holder = { key: '', id: '', name: '', permissions: 0 };

  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = await adminToken();
    await ensureMount(token, '/team');
    pasteSlug = (await createPaste(token, { content: 'secret', password: 'right-pass' })).slug;
    usedSlug = (await uploadViaApi(token, 'once.txt', 'x', 'text/plain', { max_views: 1 })).slug;
    await call('GET', `/public/files/${usedSlug}`);
    const key = await createKey(token, {
      name: uniqueName('team-viewer'),
      permissions: Perm.MOUNT_VIEW | Perm.TEXT,
      basic_path: '/team',
    });
    holder = { key: key.key, id: key.id, name: key.name, permissions: key.permissions };
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const lang of ['zh-CN', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token, browser }) => {
          const en = lang === 'en';
          const suffix = `${lang}-${theme}-${width}`;
          const shot = (name: string, p = page) => p.screenshot({ path: path.join(out, `${name}-${suffix}.png`) });
          test.setTimeout(120_000);
          await page.setViewportSize({ width, height: 844 });
          // A visitor (the admin would not be asked for the password).
          await seedStorage(page, { themeMode: theme, language: lang });

          await page.goto(`/paste/${pasteSlug}`);
          await page.getByRole('textbox', { name: en ? 'Password' : '密码' }).fill('nope');
          await page.getByRole('button', { name: en ? 'Unlock' : '解锁' }).click();
          await expect(page.getByTestId('error-details')).toBeVisible();
          await page.getByTestId('error-details').locator('summary').click();
          await shot('paste-wrong-password');

          await page.goto(`/file/${usedSlug}`);
          await expect(page.getByTestId('file-error')).toBeVisible();
          await shot('file-used-up');

          const adminContext = await browser.newContext({ viewport: { width, height: 844 } });
          const admin = await adminContext.newPage();
          await seedStorage(admin, { themeMode: theme, language: lang, admin_token: token });
          await admin.goto('/admin/storage-config');
          const card = admin.getByTestId('storage-card').first();
          await card.getByRole('button', { name: en ? 'Test' : '测试' }).click();
          await expect(card.getByTestId('storage-test-result')).toBeVisible();
          await card.getByTestId('error-details').first().locator('summary').click();
          await shot('storage-test', admin);

          await admin.goto('/admin/key-management');
          await admin.getByRole('button', { name: en ? 'New key' : '新建密钥' }).click();
          const dialog = admin.getByRole('dialog').first();
          await dialog.getByLabel(en ? 'Name' : '名称', { exact: true }).fill('shot');
          await dialog.getByRole('textbox', { name: en ? 'Base path' : '基础路径' }).fill('/no-such-mount');
          await dialog.getByRole('button', { name: en ? 'Create key' : '创建密钥' }).click();
          await dialog.getByRole('textbox', { name: en ? 'Base path' : '基础路径' }).scrollIntoViewIfNeeded();
          await shot('key-form-base-path-refused', admin);
          await dialog.getByRole('button', { name: en ? 'Browse the mount tree' : '浏览挂载目录树' }).click();
          await admin.getByTestId('fs-folder-picker').getByRole('button').first().click();
          await shot('key-form-picker', admin);
          await adminContext.close();

          const context = await browser.newContext({ viewport: { width, height: 844 } });
          const other = await context.newPage();
          await seedStorage(other, {
            themeMode: theme,
            language: lang,
            api_key: holder.key,
            api_key_permissions: String(holder.permissions),
            api_key_info: JSON.stringify({ id: holder.id, name: holder.name, basic_path: '/team', is_guest: 0 }),
          });
          await other.goto('/mount-explorer');
          await expect(other.getByTestId('fs-denied')).toBeVisible();
          await shot('explorer-outside-base', other);
          await other.goto('/admin/text-management');
          if (width < 1024) await other.getByRole('button', { name: en ? /Open admin menu/ : /打开管理菜单/ }).click();
          await expect(other.getByRole('button', { name: en ? 'Log out' : '退出登录' }).last()).toBeVisible();
          await shot('sidebar-key-session', other);
          await context.close();
        });
      }
    }
  }
});
