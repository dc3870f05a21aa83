// Two-factor sign-in screens in light/dark, zh-CN/en, 390/1280 px (CLIPNEST_SHOTS=1 only): the account page while
// setting up (QR), the account page with 2FA on (devices list), the login's second step.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { call } from '../support/api';
import { E2E_ADMIN, E2E_PORT } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { totpCode } from '../support/totp';

const out = process.env.TWO_FACTOR_SHOTS_DIR ?? '/tmp/two-factor-shots';
const combos = (['light', 'dark'] as const).flatMap((theme) =>
  (['zh-CN', 'en'] as const).flatMap((lang) => ([390, 1280] as const).map((width) => ({ theme, lang, width }))),
);

test.describe.serial('two-factor screenshots', () => {
  const recovery: string[] = [];
  test.beforeAll(() => mkdirSync(out, { recursive: true }));
  test.afterAll(async () => {
    const login = await call<{ token: string }>('POST', '/admin/login', { body: { ...E2E_ADMIN, totp: recovery[0] } });
    const token = login.envelope.data?.token;
    if (!token) return;
    await call('POST', '/admin/2fa/disable', { token, body: { code: recovery[1] } });
    const keys = await call<{ items: { id: string }[] }>('GET', '/admin/passkeys', { token });
    for (const key of keys.envelope.data?.items ?? []) await call('DELETE', `/admin/passkeys/${key.id}`, { token });
  });

  for (const { theme, lang, width } of combos) {
    test(`setup: ${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
      await page.setViewportSize({ width, height: 1100 });
      await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
      await page.goto('/admin/account');
      const section = page.getByTestId('section-two-factor');
      await section.getByRole('button').first().click();
      await expect(section.getByTestId('totp-secret')).toBeVisible();
      await expect(section.locator('img')).toBeVisible();
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(out, `setup-${lang}-${theme}-${width}.png`) });
    });
  }

  test('turn on, with a passkey', async ({ page, token }) => {
    // A passkey needs a host name (localhost) and an authenticator (Chromium's virtual one).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await seedStorage(page, { admin_token: token });
    await page.goto(`http://localhost:${E2E_PORT}/admin/account`);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('MacBook Pro');
    await page.getByRole('dialog').getByLabel('Current password').fill(E2E_ADMIN.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('passkey-row')).toHaveCount(1);
    const setup = await call<{ secret: string }>('POST', '/admin/2fa/setup', { token });
    const enable = await call<{ recovery_codes: string[] }>('POST', '/admin/2fa/enable', {
      token,
      body: { code: totpCode(setup.envelope.data!.secret), password: E2E_ADMIN.password },
    });
    recovery.push(...enable.envelope.data!.recovery_codes);
    expect(recovery).toHaveLength(10);
  });

  for (const { theme, lang, width } of combos) {
    test(`on and login: ${theme}, ${lang}, ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 1100 });
      await seedStorage(page, { themeMode: theme, language: lang });
      await page.goto('/admin');
      await page.locator('input[name="username"]').fill(E2E_ADMIN.username);
      await page.locator('input[autocomplete="current-password"]').fill(E2E_ADMIN.password);
      await page.locator('button[type="submit"]').first().click();
      await expect(page.getByTestId('second-factor-step')).toBeVisible();
      await page.screenshot({ path: path.join(out, `login-step-${lang}-${theme}-${width}.png`) });
      await page.locator('input[name="totp"]').fill(recovery.pop()!);
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('second-factor-step')).toHaveCount(0);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('admin_token'))).toBeTruthy();
      await page.goto('/admin/account');
      await expect(page.getByTestId('session-row').first()).toBeVisible();
      await page.getByTestId('section-two-factor').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(out, `on-${lang}-${theme}-${width}.png`), fullPage: true });
    });
  }
});
