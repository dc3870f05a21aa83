import type { Page } from '@playwright/test';
import { call } from '../support/api';
import { E2E_ADMIN, E2E_PORT } from '../support/env';
import { expect, seedStorage, test } from '../support/fixtures';
import { totpCode } from '../support/totp';

// Passkeys need a domain as rpID (an IP address is refused by WebAuthn): these pages use localhost.
const ORIGIN = `http://localhost:${E2E_PORT}`;
const NEXT_STEP = 30_000;

/** The recovery codes and secrets the tests saw, to turn two-factor off whatever state a test left. */
const spare: string[] = [];
const secrets: string[] = [];

/** Codes that may still work: unused recovery codes, and the next steps' codes of every secret seen. */
function someCodes(): string[] {
  const later = secrets.flatMap((s) => [totpCode(s, Date.now() + NEXT_STEP), totpCode(s)]);
  return [...spare.splice(0), ...later];
}

async function turnOffTotp() {
  let token: string | undefined;
  const codes = someCodes();
  for (const totp of [undefined, ...codes]) {
    token = (await call<{ token: string }>('POST', '/admin/login', { body: { ...E2E_ADMIN, totp } })).envelope.data
      ?.token;
    if (token) break;
  }
  if (!token) return;
  for (const code of codes) {
    const status = await call<{ totp_enabled: boolean }>('GET', '/admin/2fa', { token });
    if (!status.envelope.data?.totp_enabled) break;
    await call('POST', '/admin/2fa/disable', { token, body: { code } });
  }
  const keys = await call<{ items: { id: string }[] }>('GET', '/admin/passkeys', { token });
  for (const key of keys.envelope.data?.items ?? []) await call('DELETE', `/admin/passkeys/${key.id}`, { token });
}

/** Turns TOTP on through the API; answers the secret (its current step is spent) and keeps the codes. */
async function enableTotpByApi(token: string): Promise<string> {
  const setup = await call<{ secret: string }>('POST', '/admin/2fa/setup', { token });
  const secret = setup.envelope.data!.secret;
  secrets.push(secret);
  const enable = await call<{ recovery_codes: string[] }>('POST', '/admin/2fa/enable', {
    token,
    body: { code: totpCode(secret), password: E2E_ADMIN.password },
  });
  expect(enable.status).toBe(200);
  spare.push(...enable.envelope.data!.recovery_codes);
  return secret;
}

async function signInWithPassword(page: Page) {
  await page.goto(`${ORIGIN}/admin`);
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test.describe('two-factor sign-in', () => {
  // Each test signs in and out several times in two browser contexts: on CI's loaded cores that ran past the
  // default 45 s with every step passing (2026-11-28), so these long flows get twice the time.
  test.slow();
  test.afterEach(turnOffTotp);

  test('the account page turns TOTP on; the login asks for the code; devices can be signed out; a code turns it off', async ({
    adminPage: page,
    token,
    browser,
  }) => {
    await page.goto(`${ORIGIN}/admin/account`);
    const section = page.getByTestId('section-two-factor');
    await expect(section.getByTestId('two-factor-state')).toHaveText('Off');
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await expect(section.getByRole('img', { name: /QR code to add Clipnest/ })).toBeVisible();
    const secret = (await section.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    secrets.push(secret);
    await section.getByLabel('Code from the app').fill('000000');
    await section.getByLabel('Current password').fill(E2E_ADMIN.password);
    await section.getByRole('button', { name: 'Turn on' }).click();
    await expect(section.getByText('The code is wrong or was already used')).toBeVisible();
    await section.getByLabel('Code from the app').fill(totpCode(secret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await expect(section.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
    const codes = await section.getByTestId('recovery-codes').locator('li').allInnerTexts();
    spare.push(...codes.slice(2));
    await section.getByRole('button', { name: 'I have saved them' }).click();
    await expect(section.getByTestId('two-factor-state')).toHaveText('On');
    await expect(section.getByText(/10 recovery codes left/)).toBeVisible();

    // Another browser signs in: the password, then the second step (keyboard only).
    const other = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0' });
    const phone = await other.newPage();
    await signInWithPassword(phone);
    const step = phone.getByTestId('second-factor-step');
    const code = step.getByLabel('Authentication code');
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await phone.keyboard.type('123456');
    await phone.keyboard.press('Enter');
    await expect(step.getByText('The code is wrong or was already used')).toBeVisible();
    await expect(code).toBeFocused();
    // The step enabling used is spent; the next one is inside the ±1 window.
    await phone.keyboard.type(totpCode(secret, Date.now() + NEXT_STEP));
    await phone.keyboard.press('Enter');
    await expect(step).toHaveCount(0);
    await expect.poll(() => phone.evaluate(() => localStorage.getItem('admin_token'))).toBeTruthy();
    const otherToken = await phone.evaluate(() => localStorage.getItem('admin_token'));

    // A recovery code works once.
    const third = await (await browser.newContext()).newPage();
    await signInWithPassword(third);
    await third.getByRole('button', { name: 'Use a recovery code instead' }).click();
    const recovery = third.getByLabel('Recovery code');
    await expect(recovery).toBeFocused();
    await recovery.fill(codes[0]!);
    await third.keyboard.press('Enter');
    await expect(third.getByTestId('second-factor-step')).toHaveCount(0);
    expect((await call('POST', '/admin/login', { body: { ...E2E_ADMIN, totp: codes[0] } })).envelope.kind).toBe(
      'totp_wrong',
    );

    // The devices list shows them; signing the Firefox one out ends its token at once.
    await page.reload();
    const sessions = page.getByTestId('section-sessions');
    const firefox = sessions.getByTestId('session-row').filter({ hasText: 'Firefox 128 on Linux' });
    await expect(firefox).toBeVisible();
    await expect(sessions.getByTestId('session-row').filter({ hasText: 'This device' })).toHaveCount(1);
    await firefox.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out' }).click();
    await expect(firefox).toHaveCount(0);
    expect((await call('GET', '/test/admin-token', { token: otherToken! })).status).toBe(401);
    await other.close();

    // WebDAV settings say the admin password no longer works there.
    await page.goto(`${ORIGIN}/admin/settings/webdav`);
    await expect(page.getByTestId('webdav-two-factor-note')).toBeVisible();

    // Turning off needs a code.
    await page.goto(`${ORIGIN}/admin/account`);
    await section.getByRole('button', { name: 'Turn off' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Code or recovery code').fill('000000');
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(dialog.getByText('The code is wrong or was already used')).toBeVisible();
    await dialog.getByLabel('Code or recovery code').fill(codes[1]!);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(section.getByTestId('two-factor-state')).toHaveText('Off');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBe(token);
  });

  test('passkeys: added with the virtual authenticator, renamed, used instead of the password and as the second step, removed', async ({
    page,
    token,
  }) => {
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
    await page.goto(`${ORIGIN}/admin/account`);
    const section = page.getByTestId('section-passkeys');
    await expect(section.getByText('No passkeys yet.')).toBeVisible();
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Test key');
    await dialog.getByLabel('Current password').fill(E2E_ADMIN.password);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const row = section.getByTestId('passkey-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Test key');
    await expect(row).toContainText('never used');
    await row.getByRole('button', { name: 'Rename Test key' }).click();
    await dialog.getByLabel('Name').fill('Laptop');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('Laptop');

    // Instead of the password.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${ORIGIN}/admin`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.goto(`${ORIGIN}/admin/account`);
    await expect(row).toContainText('last used');
    const sessions = page.getByTestId('section-sessions');
    await expect(sessions.getByTestId('session-row').filter({ hasText: 'This device' })).toContainText('Passkey');

    // As the second step once TOTP is on.
    await enableTotpByApi(token);
    await page.evaluate(() => localStorage.clear());
    await signInWithPassword(page);
    await page.getByTestId('second-factor-step').getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.goto(`${ORIGIN}/admin/account`);

    await row.getByRole('button', { name: 'Remove Laptop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(section.getByText('No passkeys yet.')).toBeVisible();
  });
});
