import type { Page } from '@playwright/test';
import { call } from '../support/api';
import { expect, test } from '../support/fixtures';
import { createPaste, RICH_MARKDOWN } from '../support/pastes';

/** Collects Content-Security-Policy violations the page reports (console and the DOM event). */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
      );
    });
  });
  return violations;
}

async function saveSite(token: string, values: Record<string, unknown>) {
  const { status } = await call('PUT', '/admin/settings/group/4', { token, body: values });
  expect(status).toBe(200);
}

test.describe('app shell Content-Security-Policy', () => {
  test.afterEach(async ({ token }) => {
    await saveSite(token, { site_custom_head: '', site_custom_body: '' });
  });

  test('the shell works under the policy: no violation on home, a rich paste and the admin pages', async ({
    adminPage: page,
    token,
  }) => {
    const violations = await watchViolations(page);
    const response = await page.goto('/');
    const csp = response!.headers()['content-security-policy'] ?? '';
    // One hash per inline script of index.html (the theme/language boot script, the first screen's preload).
    expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+ 'nonce-[^']+'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    await expect(page.getByRole('banner')).toBeVisible();

    const paste = await createPaste(token, { content: RICH_MARKDOWN, type: 'markdown' });
    await page.goto(`/paste/${paste.slug}`);
    const body = page.getByTestId('markdown-body');
    await expect(body.locator('.katex').first()).toBeVisible();
    await expect(body.locator('pre.md-mermaid')).toHaveCount(0, { timeout: 20_000 });
    for (const route of ['/admin/settings/site', '/admin/dashboard', '/explorer']) {
      await page.goto(route);
      await expect(page.getByRole('banner')).toBeVisible();
    }
    expect(violations).toEqual([]);
  });

  test('a script without the nonce is refused; the admin custom code still runs', async ({ page, token }) => {
    await saveSite(token, {
      site_custom_head: '<script>window.__customHead = "ran"</script>',
      site_custom_body:
        '<div id="inline-handler" onclick="window.__handler = 1">x</div><script>window.__customBody = "ran"</script>',
    });
    const violations = await watchViolations(page);
    await page.goto('/upload');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Record<string, unknown>).__customHead))
      .toBe('ran');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as Record<string, unknown>).__customBody))
      .toBe('ran');
    // The trade-off: the admin's inline handler is refused (reported once), the admin's scripts run.
    await page.locator('#inline-handler').click();
    expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__handler ?? null)).toBeNull();
    expect(violations.filter((v) => !/script-src-attr|inline event handler/.test(v))).toEqual([]);

    // Markup reaching the DOM any other way (as an XSS would) cannot run script.
    const ran = await page.evaluate(async () => {
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="x" onerror="window.__evil = 1">';
      document.body.appendChild(holder);
      const script = document.createElement('script');
      script.textContent = 'window.__evil = 2';
      document.body.appendChild(script);
      await new Promise((r) => setTimeout(r, 300));
      return (window as unknown as Record<string, unknown>).__evil ?? null;
    });
    expect(ran).toBeNull();
    expect(violations.length).toBeGreaterThan(0);
  });
});
