import { test as base, expect, type Page } from '@playwright/test';
import { adminToken } from './api';

/** Stores credentials/preferences before the app boots (as the app itself would have saved them). */
export async function seedStorage(page: Page, values: Record<string, string>): Promise<void> {
  await page.addInitScript((entries) => {
    // Only on the first load of this page: later reloads must see what the app itself stored.
    if (sessionStorage.getItem('__seeded')) return;
    sessionStorage.setItem('__seeded', '1');
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, values);
}

export const test = base.extend<{ adminPage: Page; token: string }>({
  // eslint-disable-next-line no-empty-pattern
  token: async ({}, use) => {
    await use(await adminToken());
  },
  adminPage: async ({ page, token }, use) => {
    await seedStorage(page, { admin_token: token });
    await use(page);
  },
});

export { expect };
