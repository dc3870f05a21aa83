import { createRequire } from 'node:module';
import path from 'node:path';
import { loadBudgets, seedRoutes, kb } from '../e2e/support/routeWeight.mjs';
import { repoRoot, startServer } from './lib/server.mjs';
const { chromium } = createRequire(path.join(repoRoot, 'e2e', 'package.json'))('@playwright/test');
const only = process.argv.slice(2);
const { routes } = loadBudgets();
const server = await startServer({ env: { WEB_DIST_DIR: path.join(repoRoot, 'web', 'dist') } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const token = await server.login();
  const paths = await seedRoutes(server.url, token, routes);
  for (const route of routes) {
    if (only.length && !only.includes(route.name)) continue;
    const context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-US' });
    if (route.admin) await context.addInitScript((v) => localStorage.setItem('admin_token', v), token);
    const page = await context.newPage();
    const rows = []; const pending = [];
    page.on('requestfinished', (req) => pending.push((async () => {
      const s = await req.sizes(); const r = await req.response();
      rows.push([req.resourceType(), s.responseBodySize, s.responseHeadersSize, r?.headers()['content-encoding'] ?? '-', req.url().replace(server.url, '')]);
    })()));
    await page.goto(server.url + paths[route.name], { waitUntil: 'networkidle' });
    await page.locator('h1').first().waitFor({ timeout: 20000 }).catch(() => {});
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    let js = 0, all = 0;
    for (const r of rows) { if (r[0] === 'script') js += r[1]; all += r[1] + r[2]; }
    console.log(`== ${route.name} js=${kb(js)} wire=${kb(all)} n=${rows.length}`);
    for (const r of rows.sort((a, b) => b[1] - a[1])) console.log('  ', r[0].padEnd(10), String(r[1]).padStart(7), r[3].padEnd(5), r[4].slice(0, 90));
    await context.close();
  }
} finally { await browser.close(); await server.stop(); }
