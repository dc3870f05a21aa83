import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FsListing } from '@clipnest/contract';
import { adminToken, call, uniqueName } from '../support/api';
import { BASE_URL } from '../support/env';
import { entryRow as row, transferToMount } from '../support/explorer';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, s3Storage, writeTree } from '../support/mounts';
import { startS3rver, type S3rver } from '../support/s3rver';

async function listNames(token: string, dir: string): Promise<string[]> {
  const { envelope } = await call<FsListing>('GET', `/fs/list?path=${encodeURIComponent(dir)}&refresh=true`, { token });
  return (envelope.data?.items ?? []).map((e) => e.name).sort();
}

/** Puts a file into a mount through POST /api/fs/upload. */
async function upload(token: string, filePath: string, content: Buffer) {
  const form = new FormData();
  form.append('path', filePath);
  form.append('file', new Blob([new Uint8Array(content)]), path.basename(filePath));
  const res = await fetch(`${BASE_URL}/api/fs/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
}

test.describe('explorer tasks: copy and move across mounts, the task manager, the file basket, search', () => {
  let s3: S3rver;
  let localRoot: string;

  test.beforeAll(async () => {
    s3 = await startS3rver();
    const token = await adminToken();
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('tasks-local'));
    localRoot = local.root;
    writeTree(localRoot, {
      'proj/a.txt': 'alpha',
      'proj/sub/b.txt': 'bravo bravo',
      'mv/m.txt': 'moved across',
      'same/s.txt': 'same mount',
    });
    await mount(token, 'Local', '/local', local.config.id);
    await mount(token, 'Cloud', '/cloud', (await s3Storage(token, uniqueName('tasks-s3'), s3)).id);
  });

  test.afterAll(async () => {
    // Finished tasks would show in the task panel of other specs' pages.
    await call('DELETE', '/fs/tasks/completed', { token: await adminToken() });
    await s3?.stop();
  });

  test('copies a folder from the local mount to the S3 mount as a task; the panel survives a reload', async ({
    adminPage: page,
  }) => {
    const token = await adminToken();
    await page.goto('/mount-explorer/local');
    const started = page.waitForResponse((r) => r.url().includes('/api/fs/batch-copy') && r.status() === 202);
    await transferToMount(page, 'proj', 'cloud');
    await started;
    const task = page.getByTestId('fs-task').first();
    await expect(task).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
    await expect(task.getByTestId('fs-task-status')).toHaveText('Completed');
    await expect(task).toContainText('2 / 2 files');
    expect(await listNames(token, '/cloud/proj')).toEqual(['a.txt', 'sub']);
    expect(await listNames(token, '/cloud/proj/sub')).toEqual(['b.txt']);
    // The source stays (a copy).
    expect(readFileSync(path.join(localRoot, 'proj/a.txt'), 'utf8')).toBe('alpha');

    // The task list comes from the server: a reload shows it again, with its per-file status.
    await page.reload();
    await expect(page.getByTestId('fs-task')).toHaveCount(1);
    await page.getByRole('button', { name: 'Show files' }).click();
    const files = page.getByTestId('fs-task-files').locator('li');
    await expect(files).toHaveCount(2);
    await expect(files.filter({ hasText: '/cloud/proj/sub/b.txt' })).toHaveAttribute('data-status', 'completed');

    await page.goto('/mount-explorer/cloud/proj');
    await expect(row(page, 'a.txt')).toBeVisible();
    await expect(row(page, 'sub')).toBeVisible();

    // Idle: no polling of /fs/tasks while nothing runs (the list is read once per page load).
    let polls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/fs/tasks')) polls += 1;
    });
    await page.getByRole('button', { name: 'Clear completed' }).click();
    await expect(page.getByTestId('fs-tasks')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    const afterClear = polls;
    await page.getByTestId('fs-entry').first().click();
    await page.waitForLoadState('networkidle');
    expect(polls).toBe(afterClear);
  });

  test('moves a file to another mount: copied by a task, then the original deleted', async ({ adminPage: page }) => {
    const token = await adminToken();
    await page.goto('/mount-explorer/local/mv');
    await transferToMount(page, 'm.txt', 'cloud', 'move');
    await expect(page.getByText('1 item moved')).toBeVisible({ timeout: 20_000 });
    await expect(row(page, 'm.txt')).toHaveCount(0);
    expect(existsSync(path.join(localRoot, 'mv/m.txt'))).toBe(false);
    expect(await listNames(token, '/cloud')).toContain('m.txt');
  });

  test('a move within one mount stays a rename (no task)', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local/same');
    let copies = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/fs/batch-copy')) copies += 1;
    });
    const renamed = page.waitForResponse((r) => r.url().includes('/api/fs/rename') && r.ok());
    await row(page, 's.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const picker = page.getByRole('dialog');
    await picker.getByRole('button', { name: 'Up one folder' }).click();
    await picker.getByRole('button', { name: 'proj', exact: true }).click();
    await expect(picker).toContainText('/local/proj');
    await picker.getByRole('button', { name: 'Move here' }).click();
    await renamed;
    await expect(row(page, 's.txt')).toHaveCount(0);
    expect(readFileSync(path.join(localRoot, 'proj/s.txt'), 'utf8')).toBe('same mount');
    expect(copies).toBe(0);
  });

  test('the basket takes files from two folders of two mounts and downloads them as one zip', async ({
    adminPage: page,
  }) => {
    const token = await adminToken();
    const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    await upload(token, '/cloud/shelf/data.bin', binary);
    writeTree(localRoot, {
      'basket1/one.txt': 'first file',
      'basket1/two.txt': 'second file',
      'basket2/three.txt': '3',
    });

    // Folder 1 (local): two files selected, added through the selection bar.
    await page.goto('/mount-explorer/local/basket1');
    await row(page, 'one.txt').click();
    await row(page, 'two.txt').click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await expect(page.getByText('2 files added to the basket')).toBeVisible();
    // Folder 2 (S3 mount): through the context menu.
    await page.goto('/mount-explorer/cloud/shelf');
    await row(page, 'data.bin').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Add to basket' }).click();
    // Folder 3 (local), added then removed.
    await page.goto('/mount-explorer/local/basket2');
    await row(page, 'three.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Add to basket' }).click();
    const items = page.getByTestId('fs-basket-item');
    await expect(items).toHaveCount(4);
    await page.getByRole('button', { name: 'Remove three.txt from the basket' }).click();
    await expect(items).toHaveCount(3);
    await expect(page.getByTestId('fs-basket')).toContainText('/cloud/shelf');

    // Kept locally: a reload shows the same basket.
    await page.reload();
    await expect(items).toHaveCount(3);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download as zip' }).click();
    const download = await downloading;
    await expect(page.getByTestId('fs-basket-stage')).toHaveAttribute('data-stage', 'completed');
    expect(download.suggestedFilename()).toBe('basket.zip');
    const zip = await download.path();
    const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(listing).toEqual(['data.bin', 'one.txt', 'two.txt']);
    const unzip = (name: string) => execFileSync('unzip', ['-p', zip, name]);
    expect(unzip('one.txt').toString()).toBe('first file');
    expect(unzip('two.txt').toString()).toBe('second file');
    expect(unzip('data.bin').equals(binary)).toBe(true);

    await page.getByRole('button', { name: 'Empty basket' }).click();
    await expect(page.getByTestId('fs-basket')).toHaveCount(0);
  });

  test('a large basket asks before it downloads', async ({ adminPage: page }) => {
    await page.goto('/mount-explorer/local');
    const big = { path: '/local/huge.iso', name: 'huge.iso', size: 5 * 1024 ** 3, folder: '/local', addedAt: '' };
    await page.evaluate((item) => window.localStorage.setItem('mount_explorer_basket', JSON.stringify([item])), big);
    await page.reload();
    await page.getByRole('button', { name: 'Download as zip' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('very large archive');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('fs-basket-stage')).toHaveCount(0);
    await page.getByRole('button', { name: 'Empty basket' }).click();
  });

  test('searches in each scope; results open their folder with the preview; recent searches are kept', async ({
    adminPage: page,
  }) => {
    const token = await adminToken();
    // Written through the app, so the search index has them at once.
    await upload(token, '/local/find/deep/needle-one.txt', Buffer.from('1'));
    await upload(token, '/local/find/needle-two.txt', Buffer.from('2'));
    await upload(token, '/cloud/needle-three.txt', Buffer.from('3'));
    await page.goto('/mount-explorer/local/find/deep');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const search = page.getByTestId('fs-search');
    const hits = search.getByTestId('fs-search-hit');
    await search.getByRole('searchbox').fill('n');
    await expect(search).toContainText('Type at least 2 characters');
    await search.getByRole('searchbox').fill('needle');
    // "Everywhere" is the default, inside a mount too (issue 35).
    await expect(search.getByRole('radio', { name: 'Everywhere' })).toHaveAttribute('aria-checked', 'true');
    await expect(hits).toHaveCount(3);
    await expect(search.locator('[data-path="/cloud/needle-three.txt"]')).toBeVisible();
    await search.getByRole('radio', { name: 'This folder and below' }).click();
    await expect(hits).toHaveCount(1);
    await search.getByRole('radio', { name: 'This mount' }).click();
    await expect(hits).toHaveCount(2);
    await search.locator('[data-path="/local/find/needle-two.txt"]').click();
    await expect(page).toHaveURL(/\/mount-explorer\/local\/find\?preview=%2Flocal%2Ffind%2Fneedle-two\.txt$/);
    await expect(page.getByTestId('fs-editor')).toHaveValue('2');
    await page.keyboard.press('Escape');
    await expect(page).not.toHaveURL(/preview=/);

    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const recent = page.getByTestId('fs-recent-searches');
    await expect(recent.getByRole('button')).toHaveText(['needle']);
    await recent.getByRole('button', { name: 'needle' }).click();
    await expect(hits).toHaveCount(3);
    await search.getByRole('searchbox').fill('');
    await search.getByRole('button', { name: 'Clear' }).click();
    await expect(recent).toHaveCount(0);
  });
});
