import { test, expect } from '@playwright/test';
import { adminToken } from '../support/api';
import { BASE_URL } from '../support/env';
import { kb, loadBudgets, measureRoute, seedRoutes } from '../support/routeWeight.mjs';

// Bytes, never time: a cold load of each route must stay within the JavaScript budget in e2e/budgets.json.
const { routes, pasteTotal } = loadBudgets();
const pasteTotalLimit = pasteTotal.limit ?? pasteTotal.target;

test.describe('route budgets (compressed JavaScript on a cold load)', () => {
  let paths: Record<string, string>;
  let token: string;
  test.beforeAll(async () => {
    token = await adminToken();
    paths = await seedRoutes(BASE_URL, token, routes);
  });

  for (const route of routes) {
    test(`${route.label} stays within its budget`, async ({ browser }) => {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      if (route.admin) {
        await context.addInitScript((value) => localStorage.setItem('admin_token', value), token);
      }
      const weight = await measureRoute(context, BASE_URL + paths[route.name]);
      await context.close();
      const limit = route.limit ?? route.target;
      const summary = `${route.name}: ${kb(weight.js.transferred)} KB of JS in ${weight.js.count} files (limit ${limit} KB), ${kb(weight.wire)} KB in total with headers`;
      test.info().annotations.push({ type: 'weight', description: summary });
      console.log(summary);
      // The server sent the scripts compressed (brotli or gzip, as the browser asked).
      expect(weight.js.transferred, summary).toBeLessThan(weight.js.raw / 2);
      expect(kb(weight.js.transferred), summary).toBeLessThanOrEqual(limit);
      if (route.seed === 'paste') expect(kb(weight.wire), summary).toBeLessThan(pasteTotalLimit);
    });
  }
});
