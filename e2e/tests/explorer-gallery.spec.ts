import { mkdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Response } from '@playwright/test';
import sharp from 'sharp';
import { adminToken, uniqueName } from '../support/api';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount } from '../support/mounts';

/**
 * A gallery of large photos transfers thumbnails only. The scenario is 500 photos of 5 MB; CI runs
 * 50 (E2E_GALLERY_PHOTOS=500 runs the full one: ~2.5 GB of disk and a few minutes of thumbnailing).
 */
const PHOTOS = Number(process.env.E2E_GALLERY_PHOTOS ?? 50);
const PHOTO_BYTES = 5 * 1024 * 1024;

/** A ~4.5 MB photo-like JPEG (2400 × 1600): noise does not compress, like a real camera picture. */
async function bigPhoto(seed: number): Promise<Buffer> {
  const width = 2400;
  const height = 1600;
  const raw = Buffer.alloc(width * height * 3);
  let x = (seed + 1) * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = ((i / 3 / width) % 255) * (i % 3 === seed % 3 ? 1 : 0.3) + ((x >>> 24) & 127);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

test.describe('explorer gallery of large photos', () => {
  test.setTimeout(240_000);
  let root: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const token = await adminToken();
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('gallery-local'));
    root = local.root;
    const dir = path.join(root, 'album');
    mkdirSync(dir, { recursive: true });
    // Four distinct photos, padded to 5 MB (decoders ignore bytes after the JPEG's end marker).
    const distinct = await Promise.all([0, 1, 2, 3].map((i) => bigPhoto(i)));
    for (let i = 0; i < PHOTOS; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, PHOTOS - i) }, (_, k) => {
          const n = i + k;
          const photo = distinct[n % distinct.length]!;
          const padded = Buffer.concat([photo, Buffer.alloc(Math.max(0, PHOTO_BYTES - photo.length), 0)]);
          return writeFile(path.join(dir, `IMG_${String(n).padStart(4, '0')}.jpg`), padded);
        }),
      );
    }
    await mount(token, 'Photos', '/photos', local.config.id);
  });

  test('opens the gallery and scrolls to the end without downloading one original', async ({ adminPage: page }) => {
    expect(statSync(path.join(root, 'album', 'IMG_0000.jpg')).size).toBeGreaterThanOrEqual(PHOTO_BYTES);
    const responses: Response[] = [];
    const thumbPaths = new Set<string>();
    const listen = (r: Response) => {
      responses.push(r);
      const url = new URL(r.url());
      if (url.pathname === '/api/fs/thumbnail' && r.status() === 200) thumbPaths.add(url.searchParams.get('path')!);
    };
    page.on('response', listen);

    // Gallery view is a remembered choice: pick it in the parent, then open the album.
    await page.goto('/mount-explorer/photos');
    await page.getByRole('radio', { name: 'Gallery view' }).click();
    await page.goto('/mount-explorer/photos/album');
    await expect(page.getByTestId('fs-entry').first()).toBeVisible();
    await expect(page.getByTestId('fs-thumb').first()).toBeVisible({ timeout: 30_000 });

    await scrollToEnd(page, () => thumbPaths.size >= PHOTOS);
    expect(thumbPaths.size).toBe(PHOTOS);
    await expect(page.locator('[data-name="IMG_' + String(PHOTOS - 1).padStart(4, '0') + '.jpg"]')).toBeVisible();
    page.off('response', listen);

    // What went over the wire for the API: thumbnails and listings only.
    let total = 0;
    let thumbBytes = 0;
    let largest = 0;
    for (const r of responses) {
      const url = new URL(r.url());
      if (!url.pathname.startsWith('/api/')) continue;
      expect(url.pathname, `${url.pathname} must not be asked for`).not.toMatch(/\/api\/fs\/(download|file-link)/);
      const { responseBodySize } = await r.request().sizes();
      total += responseBodySize;
      largest = Math.max(largest, responseBodySize);
      if (url.pathname === '/api/fs/thumbnail') thumbBytes += responseBodySize;
    }
    const average = thumbBytes / PHOTOS;
    test.info().annotations.push({
      type: 'bytes',
      description: `${PHOTOS} photos of ${PHOTO_BYTES} B: ${total} B over the API (thumbnails ${thumbBytes} B, ${Math.round(average)} B each, largest response ${largest} B)`,
    });
    expect(largest).toBeLessThan(100 * 1024);
    expect(average).toBeLessThan(40 * 1024);
    // All of it together is less than one original.
    expect(total).toBeLessThan(PHOTO_BYTES);
  });
});

/**
 * Scrolls the window down a screen at a time until `done()`. The gallery is virtualised: a tile scrolled out of
 * view drops its thumbnail request, so each screen waits (up to 20 s) for the thumbnails of the tiles it shows
 * before going on, as a person looking at the photos would; slow thumbnailing then never loses a tile.
 */
async function scrollToEnd(page: Page, done: () => boolean) {
  const screenShown = () =>
    page.evaluate(() => {
      const tiles = [...document.querySelectorAll('[data-testid="fs-entry"]')].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < window.innerHeight;
      });
      return tiles.every((el) => el.querySelector('[data-testid="fs-thumb"]') !== null);
    });
  for (let i = 0; i < 400 && !done(); i++) {
    await expect
      .poll(screenShown, { timeout: 20_000 })
      .toBe(true)
      .catch(() => undefined);
    const moved = await page.evaluate(() => {
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY !== before;
    });
    if (!moved) break;
  }
  await expect.poll(done, { timeout: 60_000 }).toBe(true);
}
