// The page a Nextcloud/ownCloud app opens for Login Flow v2 (/connect/<token>): sign in, see which app asks,
// approve or deny; the app's poll then gets its app password, or never does.
import { adminToken } from '../support/api';
import { E2E_ADMIN } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { deleteAppPasswords, startLoginFlow } from '../support/loginFlow';

test.afterAll(async () => {
  await deleteAppPasswords(await adminToken());
});

test('signed out: sign in first, then approve; the app collects its password once', async ({ page }) => {
  const flow = await startLoginFlow();
  await page.goto(flow.path);
  await expect(page.getByText('An app asks to connect')).toBeVisible();
  await page.locator('input[name="username"]').fill(E2E_ADMIN.username);
  await page.locator('input[autocomplete="current-password"]').fill(E2E_ADMIN.password);
  await page.locator('button[type="submit"]').first().click();
  await expect(page.getByTestId('connect-client')).toHaveText('Nextcloud (desktop 3.7.3, Linux)');
  await expect(page.getByText('mirall/3.7.3')).toBeVisible();
  expect((await flow.poll()).status).toBe(404);

  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('paragraph').filter({ hasText: 'App connected' })).toBeVisible();
  await expect(page.getByTestId('connect-result')).toContainText('Nextcloud (desktop 3.7.3, Linux)');
  const collected = await flow.poll();
  expect(collected.status).toBe(200);
  expect(collected.body.loginName).toMatch(/^key-/);
  expect((await flow.poll()).status).toBe(404);

  // The link is spent.
  await page.reload();
  await expect(page.getByText('This link no longer works')).toBeVisible();
});

test('as the admin in Chinese: deny, and the app never gets a password', async ({ page, token }) => {
  const flow = await startLoginFlow('Mozilla/5.0 (iOS) Nextcloud-iOS/4.9.2');
  await seedStorage(page, { admin_token: token, language: 'zh-CN' });
  await page.goto(flow.path);
  await expect(page.getByRole('heading', { name: '连接应用' })).toBeVisible();
  await expect(page.getByTestId('connect-client')).toHaveText('Nextcloud (iOS 4.9.2)');
  await page.getByRole('button', { name: '拒绝' }).click();
  await expect(page.getByText('已拒绝请求')).toBeVisible();
  expect((await flow.poll()).status).toBe(404);
});

test('an unknown link says it no longer works', async ({ page, token }) => {
  await seedStorage(page, { admin_token: token });
  await page.goto(`/connect/${'x'.repeat(43)}`);
  await expect(page.getByText('This link no longer works')).toBeVisible();
  await expect(page.getByText('Start the sign-in again in the app')).toBeVisible();
});
