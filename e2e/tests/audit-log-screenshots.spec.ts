import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { call, createKey, Perm, uniqueName } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { createPaste } from '../support/pastes';

// The audit log page, for looking at: every theme × language × width, plus its empty and error states.
const out = process.env.ADMIN_SHOTS_DIR ?? '/tmp/audit-log-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('audit log screenshots', () => {
  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const token = (await (await import('../support/api')).adminToken()) as string;
    await fetch(`${BASE_URL}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'intruder', password: 'guess-1' }),
    });
    const key = await createKey(token, { name: uniqueName('nightly-backup-script'), permissions: Perm.TEXT });
    const paste = await createPaste(token, { content: '# Notes', slug: uniqueName('notes').toLowerCase() });
    await createPaste(token, { content: 'From the script', slug: uniqueName('script').toLowerCase() }).catch(
      () => undefined,
    );
    await fetch(`${BASE_URL}/api/paste`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `ApiKey ${key.key}` },
      body: JSON.stringify({ content: 'via key' }),
    });
    await fetch(`${BASE_URL}/api/files`, { headers: { authorization: `ApiKey ${key.key}` } });
    await call('DELETE', `/pastes/${paste.id}`, { token });
    await call('PUT', '/admin/settings/group/1', { token, body: { proxy_sign_expires: 0 } });
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          const suffix = `${lang}-${theme}-${width}`;
          await page.goto('/admin/audit-log');
          await expect(page.getByTestId('audit-row').first()).toBeVisible();
          await page.screenshot({ path: path.join(out, `audit-log-${suffix}.png`), fullPage: true });
          await page.getByLabel(lang === 'en' ? 'From' : '开始日期', { exact: true }).fill('2001-01-01');
          await page.getByLabel(lang === 'en' ? 'To' : '结束日期', { exact: true }).fill('2001-01-02');
          await expect(page.locator('[data-testid=audit-row]')).toHaveCount(0);
          await page.screenshot({ path: path.join(out, `audit-log-nomatch-${suffix}.png`) });
          // The log's settings (retention, views) on the global settings page.
          await page.goto('/admin/settings/global');
          const retention = page.getByRole('spinbutton', { name: lang === 'en' ? 'Keep entries for' : '记录保留' });
          await expect(retention).toHaveValue('180');
          await retention.scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(out, `audit-settings-${suffix}.png`) });
        });
      }
    }
  }

  test('loading and error states', async ({ page, token }) => {
    await seedStorage(page, { admin_token: token });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/audit-log?*', async (route) => {
      await held;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"code":500,"message":"database is down","success":false}',
      });
    });
    await page.goto('/admin/audit-log');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: path.join(out, 'audit-log-loading-en-light-1280.png') });
    release();
    await expect(page.getByText('The audit log could not be loaded')).toBeVisible();
    await page.screenshot({ path: path.join(out, 'audit-log-error-en-light-1280.png') });
  });
});
