import { createKey, Perm, uniqueName } from '../support/api';
import { E2E_ADMIN } from '../support/env';
import { expect, test } from '../support/fixtures';

test.describe('admin login', () => {
  test('username and password', async ({ page }) => {
    await page.goto('/admin/key-management');
    await expect(page).toHaveTitle('Log in - Clipnest');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();

    await expect(page.getByTestId('panel-title').first()).toHaveText('Admin Panel');
    await expect(page.getByRole('heading', { name: 'Key management' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/key-management$/);
    await expect(page).toHaveTitle('Key management - Clipnest');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeTruthy();

    // Logging out clears the session and shows the login page again.
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  });

  test('wrong credentials show the right message', async ({ page }) => {
    await page.goto('/admin');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong username or password');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  });

  test('empty fields are flagged inline', async ({ page }) => {
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Enter the username')).toBeVisible();
    await expect(page.getByText('Enter the password')).toBeVisible();
  });
});

test.describe('API key login', () => {
  test('a key with text and file permission opens the user panel', async ({ page, token }) => {
    const key = await createKey(token, { name: uniqueName('login'), permissions: Perm.TEXT | Perm.FILE_SHARE });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key.key);
    await page.getByRole('button', { name: 'Log in' }).click();

    await expect(page.getByTestId('panel-title').first()).toHaveText('User Panel');
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    const stored = await page.evaluate(() => ({
      key: localStorage.getItem('api_key'),
      permissions: localStorage.getItem('api_key_permissions'),
      info: JSON.parse(localStorage.getItem('api_key_info') ?? 'null') as { name?: string } | null,
    }));
    expect(stored).toEqual({ key: key.key, permissions: '3', info: expect.objectContaining({ name: key.name }) });

    // One sign-out (issue 35 point 16): no second "Log out auth" beside it; it forgets the key on this device.
    const nav = page.getByRole('complementary');
    await expect(nav.getByRole('button', { name: /log out/i })).toHaveCount(1);
    await nav.getByRole('button', { name: 'Log out', exact: true }).click();
    await expect(page.getByRole('tab', { name: 'API key' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
  });

  test('a wrong key shows the right message', async ({ page }) => {
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill('cn_this-key-does-not-exist');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid or unauthorized API key');
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
  });

  test('a key without any permission is refused', async ({ page, token }) => {
    const key = await createKey(token, { name: uniqueName('none'), permissions: 0 });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key.key);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('This API key does not have enough permissions');
  });
});
