// Archives in the explorer's preview (issue 42, point 3): the listing read on the server, unsafe names flagged,
// a single entry saved from inside the archive (CLIPNEST_SHOTS=1 also takes the screenshots).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { tarOf } from '../../server/test/support/handTar';
import { zipOf } from '../../server/test/support/handZip';
import { adminToken } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { localStorage, mount } from '../support/mounts';

// Fresh names per worker: a worker that restarts after a failure runs beforeAll again.
const run = Date.now().toString(36);
const mountPath = `/arch${run}`;
const archivePath = `${mountPath}/bundle.zip`;

test.describe('archive preview in the explorer', () => {
  test.beforeAll(async () => {
    const token = await adminToken();
    const { config, root } = await localStorage(token, `arch${run}`);
    await mount(token, `arch${run}`, mountPath, config.id);
    mkdirSync(root, { recursive: true });
    writeFileSync(
      path.join(root, 'bundle.zip'),
      zipOf([
        { name: 'docs/' },
        { name: 'docs/readme.txt', data: Buffer.from('# Read me\n'.repeat(50)), deflate: true },
        { name: '照片/海边.jpg', data: Buffer.from('not really a jpeg') },
        { name: '../evil.txt', data: Buffer.from('slip') },
      ]),
    );
    writeFileSync(
      path.join(root, 'notes.tar.gz'),
      gzipSync(
        await tarOf([
          { name: 'notes/', directory: true },
          { name: 'notes/todo.md', data: '- ship the previews\n' },
          { name: 'notes/日记.txt', data: '今天很好' },
        ]),
      ),
    );
  });

  test('lists the entries with sizes, flags a slip name, and saves one entry', async ({ adminPage: page }) => {
    await page.goto(`/mount-explorer${mountPath}?preview=${encodeURIComponent(archivePath)}`);
    const preview = page.getByTestId('fs-archive-preview');
    await expect(preview).toBeVisible();
    await expect(preview.getByRole('status')).toHaveText('4 entries');
    const rows = preview.getByTestId('archive-entry');
    await expect(rows).toHaveCount(4);
    await expect(rows.filter({ hasText: '../evil.txt' })).toContainText('Unsafe name');
    await expect(rows.filter({ hasText: 'docs/readme.txt' })).toContainText('500 B');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByRole('button', { name: 'Save “docs/readme.txt”' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('readme.txt');
    expect(readFileSync(await download.path(), 'utf8')).toBe('# Read me\n'.repeat(50));
  });

  test('a .tar.gz lists its entries and saves one', async ({ adminPage: page }) => {
    await page.goto(`/mount-explorer${mountPath}?preview=${encodeURIComponent(`${mountPath}/notes.tar.gz`)}`);
    const preview = page.getByTestId('fs-archive-preview');
    await expect(preview.getByRole('status')).toHaveText('3 entries');
    await expect(preview.getByTestId('archive-entry').filter({ hasText: 'notes/日记.txt' })).toContainText('12 B');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByRole('button', { name: 'Save “notes/todo.md”' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('todo.md');
    expect(readFileSync(await download.path(), 'utf8')).toBe('- ship the previews\n');
  });

  test('a broken archive says why instead of a listing', async ({ adminPage: page, token }) => {
    const { config, root } = await localStorage(token, `broken${run}`);
    await mount(token, `broken${run}`, `/broken${run}`, config.id);
    writeFileSync(path.join(root, 'broken.zip'), 'not a zip');
    await page.goto(`/mount-explorer/broken${run}?preview=${encodeURIComponent(`/broken${run}/broken.zip`)}`);
    await expect(page.getByRole('dialog')).toContainText('not a readable zip archive');
  });

  test('screenshots', async ({ browser, token }) => {
    test.skip(process.env.CLIPNEST_SHOTS !== '1', 'screenshots only with CLIPNEST_SHOTS=1');
    const out = path.resolve('artifacts', 'archive');
    mkdirSync(out, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      for (const lang of ['zh-CN', 'en'] as const) {
        for (const width of [390, 1280] as const) {
          const context = await browser.newContext({ viewport: { width, height: 844 } });
          const page = await context.newPage();
          await seedStorage(page, { themeMode: theme, language: lang, admin_token: token });
          await page.goto(`/mount-explorer${mountPath}?preview=${encodeURIComponent(archivePath)}`);
          await expect(page.getByTestId('fs-archive-preview')).toBeVisible();
          await page.screenshot({ path: path.join(out, `archive-${lang}-${theme}-${width}.png`) });
          await context.close();
        }
      }
    }
  });
});
