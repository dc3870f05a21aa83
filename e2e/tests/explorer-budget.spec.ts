import type { BrowserContext, Response } from '@playwright/test';
import { adminToken } from '../support/api';
import { expect, test } from '../support/fixtures';

/** Issue 19's budget: the explorer's own JavaScript is at most 60 KB compressed on top of the shell. */
const EXPLORER_OWN_JS_KB = 60;

/** JavaScript a cold load of `path` transfers: URL → compressed body bytes. */
async function scriptsOf(context: BrowserContext, path: string, ready: string): Promise<Map<string, number>> {
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') responses.push(r);
  });
  await page.goto(path);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  const scripts = new Map<string, number>();
  for (const r of responses) scripts.set(new URL(r.url()).pathname, (await r.request().sizes()).responseBodySize);
  await page.close();
  return scripts;
}

test('the explorer loads at most 60 KB of its own JS, only on its route (mount management reported)', async ({
  browser,
}) => {
  const token = await adminToken();
  // The budget is in gzip: ask for it (the browser would take brotli, smaller still).
  const context = await browser.newContext({
    serviceWorkers: 'block',
    extraHTTPHeaders: { 'Accept-Encoding': 'gzip' },
  });
  await context.addInitScript((value) => localStorage.setItem('admin_token', value), token);
  const home = await scriptsOf(context, '/', 'main');
  const admin = await scriptsOf(context, '/admin', 'main');
  const shell = new Set([...home.keys(), ...admin.keys()]);
  for (const [route, ready] of [
    ['/mount-explorer', '[data-testid="fs-explorer"]'],
    ['/admin/mount-management', 'main h1'],
  ] as const) {
    const scripts = await scriptsOf(context, route, ready);
    const own = [...scripts].filter(([url]) => !shell.has(url));
    const bytes = own.reduce((sum, [, size]) => sum + size, 0);
    const summary = `${route}: ${(bytes / 1024).toFixed(1)} KB of its own JS in ${own.length} files (${own.map(([u, s]) => `${u.split('/').pop()} ${(s / 1024).toFixed(1)}`).join(', ')})`;
    test.info().annotations.push({ type: 'weight', description: summary });
    console.log(summary);
    expect(own.length, summary).toBeGreaterThan(0);
    if (route === '/mount-explorer') expect(bytes / 1024, summary).toBeLessThanOrEqual(EXPLORER_OWN_JS_KB);
    // None of it is part of the shell (home, admin dashboard).
    for (const [url] of own) expect(home.has(url) || admin.has(url), url).toBe(false);
  }
  await context.close();
});
