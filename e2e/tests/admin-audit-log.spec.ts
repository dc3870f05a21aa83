import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { call, createKey, Perm, uniqueName } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';
import { createPaste } from '../support/pastes';

async function loginWithKey(page: Page, key: string) {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test.describe('audit log page', () => {
  test('lists sign-ins and changes, filters them, exports CSV', async ({ adminPage: page, token }, testInfo) => {
    // A wrong sign-in and a few changes to find.
    await fetch(`${BASE_URL}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'someone-else', password: 'wrong-password-e2e' }),
    });
    const slug = uniqueName('audited')
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-');
    const paste = await createPaste(token, { content: 'audited', slug });
    await call('DELETE', `/pastes/${paste.id}`, { token });

    await page.goto('/admin/audit-log');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    await expect(page).toHaveTitle('Audit log - Clipnest');
    const sidebar = page.getByRole('navigation', { name: 'Admin navigation' });
    await expect(sidebar.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
    const rows = page.getByTestId('audit-row');
    await expect(rows.first()).toBeVisible();
    const failed = rows.filter({ hasText: 'auth.login.failed' }).filter({ hasText: 'someone-else' });
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('Denied');
    await expect(failed).toContainText('127.0.0.1');
    await expect(
      page
        .getByTestId('audit-row')
        .filter({ hasText: `slug=${slug}` })
        .first(),
    ).toBeVisible();

    // Action family filter.
    await page.getByRole('combobox', { name: 'Action' }).fill('paste');
    await expect(rows.filter({ hasText: 'auth.login' })).toHaveCount(0);
    await expect(rows.first()).toHaveAttribute('data-action', /^paste\./);
    await expect(rows.filter({ hasText: 'paste.delete' }).first()).toContainText(`id=${paste.id}`);
    expect(
      (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).every((a) =>
        a?.startsWith('paste.'),
      ),
    ).toBe(true);

    // Export the filtered log.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = testInfo.outputPath('audit.csv');
    await download.saveAs(file);
    const csv = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('at,actor,actor_name,action,target,outcome,status,client,request_id,detail,id');
    expect(lines.slice(1).every((line) => line.split(',')[3]?.startsWith('paste.'))).toBe(true);
    expect(csv).toContain(`slug=${slug}`);

    // Actor filter, then a date range with nothing in it, then clear.
    await page.getByRole('combobox', { name: 'Action' }).fill('');
    await page.getByRole('textbox', { name: 'Actor' }).fill('anonymous');
    await expect(rows.first()).toBeVisible();
    await expect(rows.filter({ hasText: 'admin:' })).toHaveCount(0);
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByLabel('To', { exact: true }).fill('2001-01-02');
    await expect(page.getByText('No entries match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(rows.filter({ hasText: 'admin:' }).first()).toBeVisible();
  });

  test('loads more entries as the list scrolls', async ({ adminPage: page, token }) => {
    for (let i = 0; i < 120; i++) await call('POST', '/admin/cache/clear', { token, body: {} });
    await page.goto('/admin/audit-log');
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
    const more = page.waitForRequest((request) => /audit-log\?.*offset=100/.test(request.url()));
    await page.mouse.move(640, 500);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 4000);
    await more;
    // Rows off screen are not in the page (the list is virtualised).
    expect(await page.getByTestId('audit-row').count()).toBeLessThan(100);
  });

  test('works on a phone', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/audit-log');
    const row = page.getByTestId('audit-row').first();
    await expect(row).toBeVisible();
    const box = await row.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('shows an error with a retry when the log cannot be read', async ({ adminPage: page }) => {
    let fail = true;
    await page.route('**/api/admin/audit-log?*', (route) =>
      fail
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ code: 500, message: 'database is down', success: false }),
          })
        : route.continue(),
    );
    await page.goto('/admin/audit-log');
    await expect(page.getByText('The audit log could not be loaded')).toBeVisible();
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('audit-row').first()).toBeVisible();
  });

  test('is not offered to key holders', async ({ page, token }) => {
    const key = await createKey(token, { name: uniqueName('text-only'), permissions: Perm.TEXT });
    await loginWithKey(page, key.key);
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    await expect(
      page.getByRole('navigation', { name: 'Admin navigation' }).getByRole('link', { name: 'Audit log' }),
    ).toHaveCount(0);
    await page.goto('/admin/audit-log');
    await expect(page).toHaveURL(/\/admin\/text-management$/);
  });
});
