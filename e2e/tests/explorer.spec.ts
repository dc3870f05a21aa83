import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { adminToken, createKey, Perm, uniqueName } from '../support/api';
import { seriousViolations } from '../support/axe';
import { entryRow as row } from '../support/explorer';
import { expect, seedStorage, test } from '../support/fixtures';
import { shot } from '../support/looks';
import { deleteAllMounts, localStorage, mount, s3Storage, writeTree } from '../support/mounts';
import { startS3rver, type S3rver } from '../support/s3rver';
import { afterPendingTasks } from '../support/settle';

/** Drops files onto the explorer as the browser would (a DataTransfer with File items). */
async function dropFiles(page: Page, files: { name: string; content: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.content], f.name, { type: 'text/plain' }));
    return dt;
  }, files);
  const target = page.getByTestId('fs-explorer');
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

test.describe('mount explorer', () => {
  let s3: S3rver;
  let localRoot: string;

  test.beforeAll(async () => {
    s3 = await startS3rver({ cors: true });
    const token = await adminToken();
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('explorer-local'));
    localRoot = local.root;
    writeTree(localRoot, {
      'docs/readme.txt': 'hello explorer',
      'docs/notes.md': '# Notes',
      'photos/a.txt': 'not a photo',
      'team/inside.txt': 'inside the base path',
      'other/outside.txt': 'outside',
      'pics/a.png': 'not really a png',
      'pics/b.png': 'not really a png',
      'pics/c.txt': 'text',
      'keys/notes.md': '# keyboard',
      'keys/readme.txt': 'keyboard',
    });
    // Written asynchronously: a long synchronous loop stalls this process past the server's keep-alive.
    const big = path.join(localRoot, 'big');
    mkdirSync(big, { recursive: true });
    const names = Array.from({ length: 10_000 }, (_, i) => `f${String(i).padStart(5, '0')}.txt`);
    for (let i = 0; i < names.length; i += 500)
      await Promise.all(names.slice(i, i + 500).map((n) => writeFile(path.join(big, n), '')));
    await mount(token, 'Local', '/local', local.config.id);
    const s3config = await s3Storage(token, uniqueName('emulator'), s3);
    await mount(token, 'Cloud', '/cloud', s3config.id);
  });

  test.afterAll(async () => {
    await s3?.stop();
  });

  test('mount management shows the spec §5 rules as the admin types, and toggles and deletes', async ({
    adminPage: page,
    token,
  }) => {
    const extra = await localStorage(token, uniqueName('explorer-extra'));
    await page.goto('/admin/mount-management');
    await expect(page.getByTestId('mount-row')).toHaveCount(2);
    await page.getByRole('button', { name: 'Add mount' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Extra');
    await dialog.getByLabel('Path', { exact: true }).fill('/api/x');
    await expect(dialog.getByText(/reserved by the system/)).toBeVisible();
    await dialog.getByLabel('Path', { exact: true }).fill('/a//b');
    await expect(dialog.getByText(/single \/ between parts/)).toBeVisible();
    await dialog.getByLabel('Path', { exact: true }).fill('/额外');
    await expect(dialog.getByText(/single \/ between parts/)).toBeHidden();
    await dialog.getByLabel('Listing cache (seconds)').fill('90000');
    await expect(dialog.getByText('Enter whole seconds from 0 to 86400')).toBeVisible();
    await dialog.getByLabel('Listing cache (seconds)').fill('60');
    await dialog.getByLabel('Storage').selectOption(extra.config.id);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    const added = page.locator('[data-testid="mount-row"][data-path="/额外"]');
    await expect(added).toContainText('Enabled');

    await added.getByRole('button', { name: 'More actions: Extra' }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await expect(added.getByTestId('mount-status')).toHaveText('Disabled');

    await added.getByRole('button', { name: 'More actions: Extra' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(added).toHaveCount(0);
  });

  test('browses both mounts with breadcrumbs, deep links and the back button', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer');
    await expect(row(page, 'local')).toBeVisible();
    await expect(row(page, 'cloud')).toBeVisible();
    await row(page, 'local').click();
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
    await row(page, 'docs').click();
    await expect(row(page, 'readme.txt')).toBeVisible();
    await expect(page.getByTestId('fs-breadcrumbs')).toContainText('docs');
    await page.goBack();
    await expect(row(page, 'docs')).toBeVisible();
    await page.getByTestId('fs-breadcrumbs').getByRole('link', { name: 'All mounts' }).click();
    await expect(row(page, 'cloud')).toBeVisible();
    await row(page, 'cloud').click();
    await expect(page.getByText('This folder is empty')).toBeVisible();
    await page.goto('/mount-explorer/local/docs');
    await expect(row(page, 'notes.md')).toBeVisible();
  });

  test('mkdir, upload by drag and drop, rename with F2, delete with the Delete key (S3 mount)', async ({
    adminPage: page,
  }) => {
    await page.goto('/mount-explorer/cloud');
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('inbox');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await row(page, 'inbox').click();
    await expect(page).toHaveURL(/\/cloud\/inbox$/);
    // Drops are taken once the listing says the folder is writable.
    await expect(page.getByText('This folder is empty')).toBeVisible();
    await dropFiles(page, [
      { name: 'one.txt', content: 'first' },
      { name: 'two.txt', content: 'second' },
    ]);
    await expect(page.locator('[data-testid="fs-upload"][data-status="done"]')).toHaveCount(2);
    await expect(row(page, 'one.txt')).toBeVisible();
    await expect(row(page, 'two.txt')).toBeVisible();

    await row(page, 'one.txt').click();
    await page.keyboard.press('F2');
    const name = page.getByRole('dialog').getByLabel('Name');
    await name.fill('a/b');
    await expect(page.getByText('A name cannot contain / or \\')).toBeVisible();
    await name.fill('renamed.txt');
    await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
    await expect(row(page, 'renamed.txt')).toBeVisible();
    await expect(row(page, 'one.txt')).toHaveCount(0);

    await row(page, 'two.txt').click();
    await page.keyboard.press('Delete');
    await expect(page.getByRole('alertdialog')).toContainText('Delete “two.txt”?');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, 'two.txt')).toHaveCount(0);
    await expect(row(page, 'renamed.txt')).toBeVisible();
  });

  test('uploads a whole folder with its subfolders', async ({ adminPage: page }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-e2e-folder-'));
    writeTree(dir, { 'album/cover.txt': 'cover', 'album/disc 1/track.txt': 'track' });
    await page.goto('/mount-explorer/cloud');
    await page.getByTestId('fs-folder-input').setInputFiles(path.join(dir, 'album'));
    await expect(page.locator('[data-testid="fs-upload"][data-status="done"]')).toHaveCount(2);
    await row(page, 'album').click();
    await expect(row(page, 'cover.txt')).toBeVisible();
    await row(page, 'disc 1').click();
    await expect(row(page, 'track.txt')).toBeVisible();
    rmSync(dir, { recursive: true, force: true });
  });

  test('gallery settings change the view and are remembered; reset restores them', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local/pics');
    await expect(page.getByTestId('fs-entry')).toHaveCount(3);
    await page.getByRole('radio', { name: 'Gallery view' }).click();
    await expect(page.getByTestId('fs-entry')).toHaveCount(2);
    await page.getByRole('button', { name: 'Sort and view settings' }).click();
    const settings = page.getByTestId('gallery-settings');
    await settings.getByRole('switch', { name: 'Images only' }).click();
    await settings.getByRole('slider').first().fill('2');
    await expect(settings).toContainText('2 columns');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('fs-entry')).toHaveCount(3);
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Gallery view' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('fs-entry')).toHaveCount(3);
    await page.getByRole('button', { name: 'Sort and view settings' }).click();
    await expect(page.getByTestId('gallery-settings')).toContainText('2 columns');
    await page.getByRole('button', { name: 'Reset view settings' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('fs-entry')).toHaveCount(2);
    await page.getByRole('radio', { name: 'List view' }).click();
  });

  test('the gallery settings menu fits short windows and scrolls to its last control', async ({
    adminPage: page,
  }, info) => {
    await page.goto('/mount-explorer/local/pics');
    await page.getByRole('radio', { name: 'Gallery view' }).click();
    for (const size of [
      { width: 390, height: 500 },
      { width: 1280, height: 600 },
      { width: 1280, height: 420 },
    ]) {
      await page.setViewportSize(size);
      await page.getByRole('button', { name: 'Sort and view settings' }).click();
      const menu = page.getByRole('menu');
      await expect(menu.getByTestId('gallery-settings')).toBeVisible();
      const box = (await menu.boundingBox())!;
      expect(box.y, `${size.width}×${size.height}`).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height, `${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      // The last control is reachable: the menu scrolls (Playwright scrolls it into view, else the click fails).
      const reset = menu.getByRole('button', { name: 'Reset view settings' });
      await reset.scrollIntoViewIfNeeded();
      await expect(reset).toBeInViewport();
      await shot(page, info.outputPath(`gallery-settings-${size.width}x${size.height}.png`));
      await reset.click();
      await page.keyboard.press('Escape');
      await expect(menu).toHaveCount(0);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('radio', { name: 'List view' }).click();
  });

  test('moves a file into another folder through the folder picker', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local/photos');
    await row(page, 'a.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const picker = page.getByRole('dialog');
    await picker.getByRole('button', { name: 'Up one folder' }).click();
    await picker.getByRole('button', { name: 'other', exact: true }).click();
    await expect(picker).toContainText('/local/other');
    await picker.getByRole('button', { name: 'Move here' }).click();
    await expect(row(page, 'a.txt')).toHaveCount(0);
    expect(readFileSync(path.join(localRoot, 'other/a.txt'), 'utf8')).toBe('not a photo');
  });

  test('a big file goes through the fs multipart flow with progress', async ({ adminPage: page }) => {
    // A limit, not a speed check: on a loaded 2-core CI machine the upload alone has taken over 30 s.
    test.setTimeout(120_000);
    await page.goto('/mount-explorer/local/docs');
    const size = 33 * 1024 * 1024;
    // Picked from disk, as a user does: a buffer would be sent to the browser through the DevTools protocol first.
    const source = path.join(mkdtempSync(path.join(tmpdir(), 'clipnest-big-')), 'big.bin');
    await writeFile(source, Buffer.alloc(size, 7));
    const init = page.waitForRequest(/\/api\/fs\/multipart\/init/);
    const part = page.waitForRequest(/\/api\/fs\/multipart\/part\?/);
    await page.getByTestId('fs-file-input').setInputFiles(source);
    await expect(page.locator('[data-testid="fs-upload"][data-status="done"]')).toHaveCount(1, { timeout: 90_000 });
    rmSync(path.dirname(source), { recursive: true, force: true });
    await init;
    await part;
    await expect(row(page, 'big.bin')).toBeVisible();
    expect(statSync(path.join(localRoot, 'docs/big.bin')).size).toBe(size);
  });

  test('edits and saves a text file through the preview', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local/docs');
    await row(page, 'readme.txt').dblclick();
    await expect(page).toHaveURL(/preview=%2Flocal%2Fdocs%2Freadme\.txt/);
    const editor = page.getByTestId('fs-editor');
    await expect(editor).toHaveValue('hello explorer');
    await editor.fill('edited in the browser');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('“readme.txt” saved')).toBeVisible();
    expect(readFileSync(path.join(localRoot, 'docs/readme.txt'), 'utf8')).toBe('edited in the browser');
    // The preview is a URL: reloading opens it again.
    await page.reload();
    await expect(page.getByTestId('fs-editor')).toHaveValue('edited in the browser');
  });

  test('keyboard: arrows move and select, Enter opens, Escape closes and clears, Ctrl+A selects all', async ({
    adminPage: page,
  }) => {
    await page.goto('/mount-explorer/local/keys');
    await expect(page.getByTestId('fs-entry')).toHaveCount(2);
    const [first, second] = ['notes.md', 'readme.txt'];
    await row(page, first).click();
    await expect(row(page, first)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(row(page, second)).toHaveAttribute('data-focused', 'true');
    await expect(row(page, second)).toHaveAttribute('aria-selected', 'true');
    await expect(row(page, first)).toHaveAttribute('aria-selected', 'false');
    await page.keyboard.press('Shift+ArrowUp');
    await expect(row(page, first)).toHaveAttribute('aria-selected', 'true');
    await expect(row(page, second)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-testid="fs-entry"][aria-selected="true"]')).toHaveCount(0);
    await page.keyboard.press('Control+a');
    await expect(page.locator('[data-testid="fs-entry"][aria-selected="true"]')).toHaveCount(2);
    await page.keyboard.press('Escape');
    // Enter opens the focused file's preview (?preview=), Escape closes it again.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\?preview=%2Flocal%2Fkeys%2F/);
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).not.toHaveURL(/preview=/);
    // Enter on a folder goes into it (reached with the arrows: a click on a folder opens it at once).
    await page.goto('/mount-explorer/local');
    await expect(row(page, 'keys')).toBeVisible();
    const folders = await page.getByTestId('fs-entry').evaluateAll((els) => els.map((e) => e.dataset['name']));
    for (let i = 0; i <= folders.indexOf('keys'); i++) await page.keyboard.press('ArrowDown');
    await expect(row(page, 'keys')).toHaveAttribute('data-focused', 'true');
    await expect(page).toHaveURL(/\/mount-explorer\/local$/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/mount-explorer\/local\/keys$/);
  });

  test('a key confined to a base path is sent into it and sees only what its bits allow', async ({ page, token }) => {
    const key = await createKey(token, {
      name: uniqueName('team-viewer'),
      permissions: Perm.MOUNT_VIEW,
      basic_path: '/local/team',
    });
    await seedStorage(page, {
      api_key: key.key,
      api_key_permissions: String(key.permissions),
      api_key_info: JSON.stringify({
        id: key.id,
        name: key.name,
        basic_path: '/local/team',
        is_guest: 0,
        role: 'GENERAL',
        expires_at: null,
      }),
    });
    await page.goto('/mount-explorer/local/other');
    await expect(page).toHaveURL(/\/mount-explorer\/local\/team$/);
    await expect(row(page, 'inside.txt')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upload' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New folder' })).toHaveCount(0);
    await row(page, 'inside.txt').click({ button: 'right' });
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Download' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Copy to…' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Move to…' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Share' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    // The keys of actions the key lacks do nothing either.
    await row(page, 'inside.txt').click();
    await page.keyboard.press('Delete');
    await page.keyboard.press('F2');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.goto('/mount-explorer');
    await expect(page).toHaveURL(/\/mount-explorer\/local\/team$/);
    // A deep link outside the base path, and the breadcrumb above it, lead back inside.
    await page.goto('/mount-explorer/local/other/outside.txt?preview=%2Flocal%2Fother%2Foutside.txt');
    await expect(page).toHaveURL(/\/mount-explorer\/local\/team$/);
  });

  test('each permission bit shows exactly its actions', async ({ page, token }) => {
    const key = await createKey(token, {
      name: uniqueName('team-editor'),
      permissions: Perm.MOUNT_VIEW | Perm.MOUNT_RENAME | Perm.MOUNT_COPY,
      basic_path: '/local/team',
    });
    await seedStorage(page, {
      api_key: key.key,
      api_key_permissions: String(key.permissions),
      api_key_info: JSON.stringify({
        id: key.id,
        name: key.name,
        basic_path: '/local/team',
        is_guest: 0,
        role: 'GENERAL',
        expires_at: null,
      }),
    });
    await page.goto('/mount-explorer/local/team');
    await expect(row(page, 'inside.txt')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upload' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New folder' })).toHaveCount(0);
    await row(page, 'inside.txt').click({ button: 'right' });
    const menu = page.getByRole('menu');
    for (const shown of ['Download', 'Rename', 'Copy to…', 'Move to…'])
      await expect(menu.getByRole('menuitem', { name: shown }), shown).toBeVisible();
    for (const hidden of ['Delete', 'Share', 'Edit'])
      await expect(menu.getByRole('menuitem', { name: hidden }), hidden).toHaveCount(0);
    await page.keyboard.press('Escape');
    await row(page, 'inside.txt').click();
    await page.keyboard.press('Delete');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await page.keyboard.press('F2');
    await expect(page.getByRole('dialog').getByLabel('Name')).toHaveValue('inside.txt');
    await page.keyboard.press('Escape');
  });

  test('a folder of 10,000 entries pages in and scrolls to the end', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local/big');
    await expect(page.getByTestId('fs-count')).toHaveText('10,000 items');
    await expect(row(page, 'f00000.txt')).toBeVisible();
    // Only the rows on screen are in the DOM.
    expect(await page.getByTestId('fs-entry').count()).toBeLessThan(100);
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('End');
      if (await row(page, 'f09999.txt').isVisible()) break;
      await page.mouse.wheel(0, 200_000);
    }
    await expect(row(page, 'f09999.txt')).toBeVisible();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`explorer and mount management pass axe (${theme})`, async ({ page, token }) => {
      await seedStorage(page, { themeMode: theme, language: 'en', admin_token: token });
      await page.goto('/mount-explorer/local/docs');
      await expect(row(page, 'notes.md')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto('/admin/mount-management');
      await expect(page.getByTestId('mount-row').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test('long-press opens the context menu on a touch screen', async ({ browser, token }) => {
    const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    // The 500 ms press timer runs on the page's clock: moved past it at once instead of waited for.
    await page.clock.install();
    await seedStorage(page, { admin_token: token });
    await page.goto('/mount-explorer/local/docs');
    const target = row(page, 'notes.md');
    await expect(target).toBeVisible();
    const box = (await target.boundingBox())!;
    const x = box.x + 40;
    const y = box.y + box.height / 2;
    const touch = { pointerType: 'touch', isPrimary: true };
    // A finger that slides more than 10 px is a scroll, not a press; one lifted early is a tap.
    await target.dispatchEvent('pointerdown', { ...touch, clientX: x, clientY: y });
    await target.dispatchEvent('pointermove', { ...touch, clientX: x + 12, clientY: y });
    await page.clock.runFor(800);
    await afterPendingTasks(page);
    await expect(page.getByRole('menu')).toHaveCount(0);
    await target.dispatchEvent('pointerdown', { ...touch, clientX: x, clientY: y });
    await target.dispatchEvent('pointerup', { ...touch, clientX: x, clientY: y });
    await page.clock.runFor(800);
    await afterPendingTasks(page);
    await expect(page.getByRole('menu')).toHaveCount(0);
    // Held, with a wobble inside the 10 px tolerance: the menu opens.
    await target.dispatchEvent('pointerdown', { ...touch, clientX: x, clientY: y });
    await target.dispatchEvent('pointermove', { ...touch, clientX: x + 6, clientY: y + 6 });
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Rename' })).toBeVisible();
    await context.close();
  });
});
