import { createKey, deleteKey, Perm, revokeToken, uniqueName } from '../support/api';
import { E2E_ADMIN } from '../support/env';
import { expect, test } from '../support/fixtures';

test('a revoked admin token mid-session logs the user out with the right message', async ({ page }) => {
  await page.goto('/admin/key-management');
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Key management' })).toBeVisible();

  // The session is ended elsewhere (another device logs out this token).
  const token = await page.evaluate(() => localStorage.getItem('admin_token'));
  expect(token).toBeTruthy();
  await revokeToken(token!);

  // The next call the page makes answers 401 → logout + "admin session expired".
  await page.getByRole('button', { name: 'Refresh the list' }).click();
  await expect(page.getByTestId('logout-notice')).toHaveText('Admin session expired, please log in again');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  await expect(page.getByRole('heading', { name: 'Key management' })).toHaveCount(0);
});

test('a stale stored admin token is rejected on load', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('admin_token', 'revoked-or-made-up-token'));
  await page.goto('/admin');
  await expect(page.getByTestId('logout-notice')).toHaveText('Admin session expired, please log in again');
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
});

test('a deleted API key logs the key user out with the right message', async ({ page, token }) => {
  const key = await createKey(token, { name: uniqueName('doomed'), permissions: Perm.TEXT });
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key.key);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('panel-title').first()).toHaveText('User Panel');
  // The panel's own requests must be done first: one sent after the deletion would log this page out before the
  // reload, and the reloaded page would then start signed out, with no notice to show.
  await page.waitForLoadState('networkidle');

  await deleteKey(token, key.id);
  // A request of the panel's own may already have met the deleted key (the page signed out: the key is gone from
  // storage, the notice is up or about to render); else the reload's first request does.
  const signedOut = await page.evaluate(() => localStorage.getItem('api_key') === null);
  if (!signedOut) await page.reload();
  await expect(page.getByTestId('logout-notice')).toHaveText('API key invalid or expired');
  const stored = await page.evaluate(() => [
    localStorage.getItem('api_key'),
    localStorage.getItem('api_key_permissions'),
    localStorage.getItem('api_key_info'),
  ]);
  expect(stored).toEqual([null, null, null]);
});

test('logging out in another tab logs this tab out too', async ({ page, context }) => {
  await page.goto('/admin');
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('panel-title').first()).toHaveText('Admin Panel');

  const other = await context.newPage();
  await other.goto('/admin');
  await other.getByRole('button', { name: 'Log out' }).click();
  await expect(other.getByRole('button', { name: 'Log in' })).toBeVisible();

  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});
