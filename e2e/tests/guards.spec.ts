import { createKey, Perm, uniqueName } from '../support/api';
import { expect, test } from '../support/fixtures';
import type { Page } from '@playwright/test';

async function loginWithKey(page: Page, key: string) {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('a TEXT-only key is kept on text management (spec §6)', async ({ page, token }) => {
  const key = await createKey(token, { name: uniqueName('text-only'), permissions: Perm.TEXT });
  await loginWithKey(page, key.key);
  await expect(page).toHaveURL(/\/admin\/text-management$/);
  await expect(page.getByTestId('panel-title').first()).toHaveText('User Panel');

  const sidebar = page.getByRole('navigation', { name: 'Admin navigation' });
  await expect(sidebar.getByRole('link')).toHaveCount(1);
  await expect(sidebar.getByRole('link', { name: 'Text management' })).toBeVisible();

  for (const path of [
    '/admin',
    '/admin/key-management',
    '/admin/file-management',
    '/admin/settings/site',
    '/admin/backup',
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    await expect(page.getByRole('heading', { name: 'Text management' })).toBeVisible();
  }
});

test('a FILE_SHARE-only key lands on file management', async ({ page, token }) => {
  const key = await createKey(token, { name: uniqueName('file-only'), permissions: Perm.FILE_SHARE });
  await loginWithKey(page, key.key);
  await expect(page).toHaveURL(/\/admin\/file-management$/);
  await page.goto('/admin/text-management');
  await expect(page).toHaveURL(/\/admin\/file-management$/);
});

test('a key without text or file permission is sent home', async ({ page, token }) => {
  const key = await createKey(token, { name: uniqueName('mount-only'), permissions: Perm.MOUNT_VIEW });
  await loginWithKey(page, key.key);
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBe(key.key);
  await page.goto('/admin/text-management');
  await expect(page).toHaveURL(/\/$/);
});

test('admins reach every admin page', async ({ adminPage: page }) => {
  const pages: [string, string][] = [
    ['/admin', 'Dashboard'],
    ['/admin/text-management', 'Text management'],
    ['/admin/file-management', 'File management'],
    ['/admin/mount-management', 'Mount management'],
    ['/admin/storage-config', 'Storage config'],
    ['/admin/account', 'Account'],
    ['/admin/backup', 'Backup'],
    ['/admin/settings/global', 'Global settings'],
    ['/admin/settings/webdav', 'WebDAV settings'],
    ['/admin/settings/preview', 'Preview settings'],
    ['/admin/settings/site', 'Site settings'],
  ];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${heading} - Clipnest`);
  }
});
