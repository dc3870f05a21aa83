import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { adminToken, uniqueName } from '../support/api';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount } from '../support/mounts';

/** Issue 35 point 17: the gallery is a masonry (spec §1): each tile as tall as its picture, no row grid. */
test.describe('explorer gallery masonry', () => {
  test.beforeAll(async () => {
    const token = await adminToken();
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('masonry-local'));
    const dir = path.join(local.root, 'mixed');
    mkdirSync(dir, { recursive: true });
    // Tall, wide and square pictures, in an order that makes rows of a plain grid uneven.
    const shapes: [number, number][] = [
      [300, 600],
      [600, 300],
      [400, 400],
      [300, 600],
      [600, 300],
      [300, 600],
      [400, 400],
      [600, 300],
    ];
    await Promise.all(
      shapes.map(([width, height], i) =>
        sharp({ create: { width, height, channels: 3, background: { r: 40 * i, g: 120, b: 200 } } })
          .png()
          .toFile(path.join(dir, `pic-${i}.png`)),
      ),
    );
    await mount(token, 'Mixed', '/mixed', local.config.id);
  });

  test('tiles take their picture’s height and fill the shortest column', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/mount-explorer/mixed');
    await page.getByRole('radio', { name: 'Gallery view' }).click();
    await page.goto('/mount-explorer/mixed/mixed');
    await expect(page.getByTestId('fs-thumb')).toHaveCount(8, { timeout: 30_000 });

    const tile = async (name: string) => (await page.locator(`[data-name="${name}"]`).boundingBox())!;
    // Heights follow the pictures: a tall one is about four times a wide one of the same width.
    await expect
      .poll(async () => (await tile('pic-0.png')).height / (await tile('pic-1.png')).height)
      .toBeGreaterThan(3);
    const square = await tile('pic-2.png');
    expect(Math.abs(square.height - square.width)).toBeLessThan(4);

    // Not a grid of rows (8 tiles in 4 columns would share 2 tops): each column stacks its own heights.
    const tops = new Set<number>();
    for (let i = 0; i < 8; i++) tops.add(Math.round((await tile(`pic-${i}.png`)).y));
    expect(tops.size).toBeGreaterThanOrEqual(4);
    // Columns stay apart: no two tiles overlap.
    const boxes = await Promise.all(Array.from({ length: 8 }, (_, i) => tile(`pic-${i}.png`)));
    for (let a = 0; a < boxes.length; a++) {
      for (let b = a + 1; b < boxes.length; b++) {
        const [p, q] = [boxes[a]!, boxes[b]!];
        const overlap =
          p.x < q.x + q.width - 1 && q.x < p.x + p.width - 1 && p.y < q.y + q.height - 1 && q.y < p.y + p.height - 1;
        expect(overlap, `pic-${a} and pic-${b} overlap`).toBe(false);
      }
    }
  });
});
