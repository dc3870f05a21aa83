// The API reference page: Swagger UI from our origin under its own CSP, listing the operations of
// /api/openapi.json, and "Try it out" calling as the signed-in admin.
import type { Page } from '@playwright/test';
import { createKey, Perm } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';

/** CSP violations and requests to other origins while the page is open. */
function watch(page: Page): { violations: string[]; foreign: string[] } {
  const seen = { violations: [] as string[], foreign: [] as string[] };
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) seen.violations.push(msg.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(BASE_URL) && !request.url().startsWith('data:')) seen.foreign.push(request.url());
  });
  return seen;
}

test.describe('API reference (/api-docs)', () => {
  test('the API keys page links to it', async ({ adminPage: page }) => {
    await page.goto('/admin/key-management');
    const link = page.getByRole('link', { name: /API reference|API 参考/ });
    await expect(link).toHaveAttribute('href', '/api-docs');
    const [docs] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    // Swagger UI (~1.5 MB) and the whole document load in a new tab: on loaded CI cores that took more than 7 s.
    await expect(docs.locator('.opblock').first()).toBeVisible({ timeout: 30_000 });
    await docs.close();
  });

  test('lists the operations and tries GET /api/admin/api-keys with the admin session', async ({ adminPage: page }) => {
    const seen = watch(page);
    const response = await page.goto('/api-docs');
    expect(response!.status()).toBe(200);
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    await expect(page).toHaveTitle(/API/);
    await expect(page.getByText('Signed in as the admin')).toBeVisible();
    // Swagger UI renders operations as they scroll into view: count them in the document, find one by its tag.
    const document = (await (await page.request.get('/api/openapi.json')).json()) as { paths: object };
    expect(Object.keys(document.paths).length).toBeGreaterThan(100);
    await page.getByPlaceholder('Filter by tag or path').fill('System');
    const health = page.locator('.opblock').filter({ hasText: '/api/health/ready' });
    await expect(health).toHaveCount(1);
    await page.getByPlaceholder('Filter by tag or path').fill('API keys');

    const keys = page.locator('#operations-API_keys-getAdminApiKeys');
    await keys.locator('.opblock-summary').click();
    await keys.getByRole('button', { name: 'Try it out' }).click();
    await keys.getByRole('button', { name: 'Execute' }).click();
    const live = keys.locator('.live-responses-table tbody .response-col_status').first();
    await expect(live).toHaveText('200');
    await expect(keys.locator('.curl-command')).toContainText('Authorization: Bearer');

    expect(seen.violations).toEqual([]);
    expect(seen.foreign).toEqual([]);
  });

  test('a visitor without a session tries a public call, and an API key typed into Authorize', async ({
    page,
    token,
  }) => {
    const key = await createKey(token, { name: `docs ${Date.now()}`, permissions: Perm.TEXT });
    const seen = watch(page);
    await page.goto('/api-docs');
    await expect(page.getByText('Not signed in')).toBeVisible();
    await page.getByPlaceholder('Filter by tag or path').fill('System');
    const health = page.locator('#operations-System-getHealth');
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await expect(health.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');

    // The key alone, as a visitor would paste it: the page adds the `ApiKey ` scheme.
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.dialog-ux');
    const apiKeyForm = dialog.locator('.auth-container').filter({ hasText: 'ApiKey (apiKey)' });
    await apiKeyForm.locator('input').fill(key.key);
    await apiKeyForm.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.getByPlaceholder('Filter by tag or path').fill('Auth');
    const test = page.locator('#operations-Auth-getTestApiKey');
    await test.locator('.opblock-summary').click();
    await test.getByRole('button', { name: 'Try it out' }).click();
    await test.getByRole('button', { name: 'Execute' }).click();
    await expect(test.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');
    await expect(test.locator('.live-responses-table tbody .response-col_description').first()).toContainText(key.name);
    expect(seen.violations).toEqual([]);
    expect(seen.foreign).toEqual([]);
  });
});
