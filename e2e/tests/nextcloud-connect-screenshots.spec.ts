// The Login Flow v2 approval page in light/dark, zh-CN/en, 390/1280 px (CLIPNEST_SHOTS=1 only): the request as the
// admin sees it, the answer, and the sign-in a signed-out admin gets first.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, seedStorage, test } from '../support/fixtures';
import { adminToken } from '../support/api';
import { deleteAppPasswords, startLoginFlow } from '../support/loginFlow';

const out = process.env.CONNECT_SHOTS_DIR ?? '/tmp/connect-shots';
const combos = (['light', 'dark'] as const).flatMap((theme) =>
  (['zh-CN', 'en'] as const).flatMap((lang) => ([390, 1280] as const).map((width) => ({ theme, lang, width }))),
);

test.beforeAll(() => mkdirSync(out, { recursive: true }));
test.afterAll(async () => deleteAppPasswords(await adminToken()));

for (const { theme, lang, width } of combos) {
  test(`connect: ${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
    await page.setViewportSize({ width, height: 900 });
    const flow = await startLoginFlow();
    await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
    await page.goto(flow.path);
    await expect(page.getByTestId('connect-client')).toBeVisible();
    await page.screenshot({ path: path.join(out, `request-${lang}-${theme}-${width}.png`), fullPage: true });
    await page.getByTestId('connect-page').getByRole('button').last().click();
    await expect(page.getByTestId('connect-result')).toBeVisible();
    await page.screenshot({ path: path.join(out, `approved-${lang}-${theme}-${width}.png`) });
  });
  test(`connect signed out: ${theme}, ${lang}, ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const flow = await startLoginFlow();
    await seedStorage(page, { themeMode: theme, language: lang });
    await page.goto(flow.path);
    await expect(page.locator('input[name="username"]')).toBeVisible();
    await page.screenshot({ path: path.join(out, `signin-${lang}-${theme}-${width}.png`) });
  });
}
