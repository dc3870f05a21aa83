import { call } from '../support/api';
import { E2E_ADMIN } from '../support/env';
import { expect, test } from '../support/fixtures';

const NEW = { username: 'e2e-renamed', password: 'e2e-new-pass-456' };

/** Puts the original credentials back, whatever state the test left. */
async function restoreAdmin() {
  const login = await call<{ token: string }>('POST', '/admin/login', { body: NEW });
  if (login.status !== 200 || !login.envelope.data) return;
  await call('POST', '/admin/change-password', {
    token: login.envelope.data.token,
    body: { currentPassword: NEW.password, newUsername: E2E_ADMIN.username, newPassword: E2E_ADMIN.password },
  });
}

test.describe('account', () => {
  test.afterAll(restoreAdmin);

  test('validates, refuses a wrong current password, then logs out after the countdown', async ({
    adminPage: page,
  }) => {
    await page.goto('/admin/account');
    await expect(page.getByTestId('current-username')).toHaveText(E2E_ADMIN.username);

    // Spec §5: current password required, at least one change, new password differs.
    await page.getByRole('button', { name: 'Update account' }).click();
    await expect(page.getByText('Enter your current password')).toBeVisible();
    await expect(page.getByText('Enter a new username or a new password')).toBeVisible();
    await page.getByLabel('Current password').fill(E2E_ADMIN.password);
    await page.getByLabel(/^New password/).fill(E2E_ADMIN.password);
    await expect(page.getByText('The new password must differ from the current one')).toBeVisible();
    await page.getByLabel(/^New password/).fill(NEW.password);
    await page.getByLabel('Repeat the new password').fill('something-else');
    await expect(page.getByText('The passwords do not match')).toBeVisible();
    await page.getByLabel('Repeat the new password').fill(NEW.password);
    await page.getByLabel('New username').fill('a b');
    await expect(page.getByText('Use 3 to 64 characters: letters, digits and . _ @ -')).toBeVisible();
    await page.getByLabel('New username').fill(NEW.username);

    // The server refuses a wrong current password: shown at the field, still logged in.
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByRole('button', { name: 'Update account' }).click();
    await expect(page.getByText('The current password is wrong')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeTruthy();

    await page.getByLabel('Current password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Update account' }).click();
    const countdown = page.getByTestId('logout-countdown');
    await expect(countdown).toContainText('Account updated');
    await expect(countdown).toContainText(/Logging out in [45] seconds/);
    await expect(countdown).toContainText('Logging out in 1 second…', { timeout: 6_000 });
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible({ timeout: 4_000 });
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();

    // The new credentials work, the old ones do not.
    expect((await call('POST', '/admin/login', { body: E2E_ADMIN })).status).toBe(401);
    await page.getByLabel('Username').fill(NEW.username);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
    await expect(page.getByTestId('current-username')).toHaveText(NEW.username);
  });
});
