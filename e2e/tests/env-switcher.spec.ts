import { E2E_PORT } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';

/** Issue 35 point 20, spec §1: the environment switcher shows only for an admin with ?showEnvSwitcher. */
test.describe('environment switcher', () => {
  test('hidden without the parameter, and for visitors', async ({ adminPage: page, browser }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Admin' }).first()).toBeVisible();
    await expect(page.getByTestId('env-switcher')).toHaveCount(0);
    const visitor = await browser.newPage();
    await visitor.goto('/?showEnvSwitcher');
    await expect(visitor.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(visitor.getByTestId('env-switcher')).toHaveCount(0);
    await visitor.close();
  });

  test('the admin switches to another server (signed out first) and back', async ({ adminPage: page }) => {
    await page.goto('/?showEnvSwitcher');
    const button = page.getByTestId('env-switcher');
    await expect(button).toContainText('this site');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'API server' });
    await expect(dialog.getByTestId('env-switcher-url')).toHaveText(`http://127.0.0.1:${E2E_PORT}`);
    await dialog.getByRole('radio', { name: 'Another server' }).click();
    await dialog.getByLabel('Server address').fill('not a url');
    await dialog.getByRole('button', { name: 'Switch and reload' }).click();
    await expect(dialog.getByText('Enter an absolute http:// or https:// address')).toBeVisible();

    const other = `http://localhost:${E2E_PORT}`;
    await dialog.getByLabel('Server address').fill(`${other}/`);
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Switch and reload' }).click()]);
    expect(await page.evaluate(() => localStorage.getItem('api_base_url'))).toBe(other);
    // The session belonged to the first server: it is never sent to the other one.
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    // Still shown while another server is chosen: the way back needs no login there.
    await expect(page.getByTestId('env-switcher-current')).toHaveText(other);

    await page.getByTestId('env-switcher').click();
    await page.getByRole('radio', { name: /This site/ }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Switch and reload' }).click()]);
    expect(await page.evaluate(() => localStorage.getItem('api_base_url'))).toBeNull();
    await expect(page.getByTestId('env-switcher')).toHaveCount(0);
  });

  test('zh-CN texts', async ({ page, token }) => {
    await seedStorage(page, { admin_token: token, language: 'zh-CN' });
    await page.goto('/?showEnvSwitcher');
    await page.getByTestId('env-switcher').click();
    await expect(page.getByRole('dialog', { name: 'API 服务器' })).toContainText('切换后将退出登录');
  });
});
