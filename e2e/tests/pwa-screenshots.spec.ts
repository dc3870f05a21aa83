// Screenshot tour of the offline layer (CLIPNEST_SHOTS=1): offline fallback, header chip, queue dialog, install card.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, seedStorage, test } from '../support/fixtures';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
test.use({ serviceWorkers: 'allow' });

for (const theme of ['light', 'dark'] as const) {
  for (const lang of ['zh-CN', 'en'] as const) {
    for (const width of [390, 1280] as const) {
      test(`offline layer, ${theme}, ${lang}, ${width}px`, async ({ page, context, token }) => {
        const suffix = `${lang}-${theme}-${width}`;
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
        await page.goto('/');
        await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 20_000 });
        await context.setOffline(true);
        await page.goto('/upload');
        await expect(page.getByTestId('offline-fallback')).toBeVisible();
        await page.screenshot({ path: path.join(artifacts, `pwa-fallback-${suffix}.png`), fullPage: true });

        await page.goto('/');
        await page.getByRole('textbox').first().fill('queued while offline');
        await page
          .locator('form button[type="submit"], button:has-text("Create link"), button:has-text("创建链接")')
          .first()
          .click();
        await expect(page.getByTestId('offline-pending')).toHaveText('1');
        await page.evaluate(() => {
          const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
          event.prompt = () => Promise.resolve();
          event.userChoice = Promise.resolve({ outcome: 'dismissed' });
          window.dispatchEvent(event);
        });
        await expect(page.getByTestId('install-prompt')).toBeVisible({ timeout: 8_000 });
        await page.screenshot({ path: path.join(artifacts, `pwa-home-offline-${suffix}.png`) });
        await page.getByTestId('offline-indicator').click();
        await expect(page.getByTestId('offline-queue')).toBeVisible();
        await page.screenshot({ path: path.join(artifacts, `pwa-queue-${suffix}.png`) });
        // Leave nothing queued for the next run.
        await page.evaluate(() => indexedDB.deleteDatabase('clipnest-offline'));
        await page.evaluate(() => localStorage.removeItem('offline_queue_count'));
        await context.setOffline(false);
      });
    }
  }
}
