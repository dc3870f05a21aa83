import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { adminToken, call } from '../support/api';
import { seriousViolations } from '../support/axe';
import { BASE_URL } from '../support/env';
import { uploadViaApi } from '../support/files';
import { createPaste } from '../support/pastes';
import { expect, seedStorage, test } from '../support/fixtures';
import { lookThemes, shot } from '../support/looks';

/** Where the admin screenshots go (looked at by hand; not compared). */
const SHOTS = process.env.ADMIN_SHOTS_DIR ?? '/tmp/admin-shots';

const PAGES = [
  { path: '/admin', name: 'dashboard', heading: { en: 'Dashboard', 'zh-CN': '仪表盘' } },
  { path: '/admin/settings/global', name: 'settings-global', heading: { en: 'Global settings', 'zh-CN': '全局设置' } },
  {
    path: '/admin/settings/preview',
    name: 'settings-preview',
    heading: { en: 'Preview settings', 'zh-CN': '预览设置' },
  },
  {
    path: '/admin/settings/webdav',
    name: 'settings-webdav',
    heading: { en: 'WebDAV settings', 'zh-CN': 'WebDAV 设置' },
  },
  { path: '/admin/settings/site', name: 'settings-site', heading: { en: 'Site settings', 'zh-CN': '站点设置' } },
  { path: '/admin/account', name: 'account', heading: { en: 'Account', 'zh-CN': '账号管理' } },
  { path: '/admin/backup', name: 'backup', heading: { en: 'Backup', 'zh-CN': '备份恢复' } },
] as const;

/** Console errors and uncaught exceptions of a page, collected from now on. */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/** Views and downloads through the public API, so the dashboard chart has something to draw on either database. */
async function seedViews(token: string) {
  const paste = await createPaste(token, { content: '# counted', type: 'markdown' });
  for (let i = 0; i < 12; i++) await call('GET', `/paste/${paste.slug}`);
  const file = await uploadViaApi(token, 'counted.txt', 'counted', 'text/plain');
  for (let i = 0; i < 4; i++) await call('GET', `/public/files/${file.slug}`);
  for (let i = 0; i < 2; i++) await (await fetch(`${BASE_URL}/api/file-download/${file.slug}`)).arrayBuffer();
}

test.describe('admin pages', () => {
  test.beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await seedViews(await adminToken());
  });

  for (const theme of lookThemes) {
    for (const lang of ['en', 'zh-CN'] as const) {
      test(`render without console errors, ${theme}, ${lang}`, async ({ page, token }) => {
        test.setTimeout(120_000);
        const errors = watchConsole(page);
        await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
        for (const width of [1280, 390] as const) {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          for (const target of PAGES) {
            await page.goto(target.path);
            await expect(page.locator('html')).toHaveAttribute('lang', lang);
            await expect(page.getByRole('heading', { level: 1, name: target.heading[lang] })).toBeVisible();
            // Wait for loaded content, not skeletons.
            await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
            if (target.name === 'dashboard') await expect(page.getByTestId('count-api_keys')).toContainText(/\d/);
            await shot(page, path.join(SHOTS, `${target.name}-${lang}-${theme}-${width}.png`), true);
            if (theme === 'light' && width === 1280) {
              const violations = await seriousViolations(page);
              expect(violations, `${target.path}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
            }
          }
        }
        expect(errors).toEqual([]);
      });
    }
  }
});
