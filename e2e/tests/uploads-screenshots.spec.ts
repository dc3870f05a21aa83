import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe';
import { expect, seedStorage, test } from '../support/fixtures';
import { startFileServer, type FileServer } from '../support/uploads';

const out = process.env.UPLOADS_SHOTS_DIR ?? '/tmp/uploads-shots';
const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;
const MiB = 1024 * 1024;

/** An unfinished multipart upload as the page saves it in IndexedDB (the resume offer). */
async function seedResumeRecord(page: Page) {
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('clipnest-uploads', 1);
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains('multipart'))
          req.result.createObjectStore('multipart', { keyPath: 'key' });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('indexedDB'));
    });
    const size = 2_147_483_648;
    const record = {
      key: JSON.stringify(['holiday-footage-2026.mp4', size, 1, '']),
      name: 'holiday-footage-2026.mp4',
      filename: 'holiday-footage-2026.mp4',
      size,
      lastModified: 1,
      s3_config_id: '',
      file_id: 'screenshot',
      upload_id: 'screenshot',
      part_size: 5 * 1024 * 1024,
      part_count: 410,
      parts_done: Array.from({ length: 180 }, (_, i) => i + 1),
      created_at: Date.now(),
      updated_at: Date.now(),
    };
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('multipart', 'readwrite');
      tx.objectStore('multipart').put(record);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('indexedDB'));
    });
    db.close();
  });
}

test.describe('upload page screenshots (resume offer, URL tab)', () => {
  let server: FileServer;

  test.beforeAll(async () => {
    mkdirSync(out, { recursive: true });
    const body = Buffer.alloc(4 * MiB, 7);
    server = await startFileServer(
      { 'quarterly-dataset.csv': { body, type: 'text/csv' } },
      { chunk: 32 * 1024, pauseMs: 60 },
    );
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          test.setTimeout(90_000);
          const tag = `${width}-${theme}-${lang}`;
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto('/upload');
          await seedResumeRecord(page);
          await page.reload();
          await expect(page.getByTestId('resume-item')).toBeVisible();
          await page.screenshot({ path: `${out}/resume-offer-${tag}.png`, fullPage: true });
          expect(await seriousViolations(page)).toEqual([]);

          await page.getByRole('tab').nth(1).click();
          await page.screenshot({ path: `${out}/url-empty-${tag}.png`, fullPage: true });
          await page.locator('#url-source').fill(server.url('quarterly-dataset.csv'));
          await page.locator('form button[type=submit]').click();
          await expect(page.getByTestId('url-info')).toBeVisible();
          await page.screenshot({ path: `${out}/url-analyzed-${tag}.png`, fullPage: true });
          expect(await seriousViolations(page)).toEqual([]);
          await page.locator('#url-filename').fill('q3-dataset.csv');
          await page.getByTestId('url-info').getByRole('button').last().click();
          const progress = page.getByTestId('url-progress');
          await expect
            .poll(async () => Number(await progress.getByRole('progressbar').getAttribute('aria-valuenow')))
            .toBeGreaterThan(10);
          await page.screenshot({ path: `${out}/url-downloading-${tag}.png`, fullPage: true });
          await expect(progress).toHaveAttribute('data-phase', 'completed', { timeout: 30_000 });
          await page.screenshot({ path: `${out}/url-done-${tag}.png`, fullPage: true });
          // The shared success toast (sonner rich colours) is not part of this screen: let it go first.
          await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
          expect(await seriousViolations(page)).toEqual([]);
          // Forget the seeded record so later runs start clean.
          await page.evaluate(() => indexedDB.deleteDatabase('clipnest-uploads'));
        });
      }
    }
  }
});
