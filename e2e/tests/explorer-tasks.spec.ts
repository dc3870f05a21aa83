import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { FsListing } from '@clipnest/contract';
import { adminToken, call, uniqueName } from '../support/api';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, s3Storage, writeTree } from '../support/mounts';
import { startS3rver, type S3rver } from '../support/s3rver';

const row = (page: Page, name: string) => page.locator(`[data-testid="fs-entry"][data-name="${name}"]`);

async function listNames(token: string, dir: string): Promise<string[]> {
  const { envelope } = await call<FsListing>('GET', `/fs/list?path=${encodeURIComponent(dir)}&refresh=true`, { token });
  return (envelope.data?.items ?? []).map((e) => e.name).sort();
}

/** Opens "Copy to…" / "Move to…" on an entry and picks a folder of another mount from the root. */
async function transfer(page: Page, name: string, action: 'Copy to…' | 'Move to…', mountName: string) {
  await row(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: action }).click();
  const picker = page.getByRole('dialog');
  while (await picker.getByRole('button', { name: 'Up one folder' }).isVisible())
    await picker.getByRole('button', { name: 'Up one folder' }).click();
  await picker.getByRole('button', { name: mountName, exact: true }).click();
  await expect(picker).toContainText(`/${mountName}`);
  await picker.getByRole('button', { name: action === 'Copy to…' ? 'Copy here' : 'Move here' }).click();
}

test.describe('explorer tasks: copy and move across mounts, the task manager', () => {
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
    await s3?.stop();
  });

  test('copies a folder from the local mount to the S3 mount as a task; the panel survives a reload', async ({
    adminPage: page,
  }) => {
    const token = await adminToken();
    await page.goto('/mount-explorer/local');
    const started = page.waitForResponse((r) => r.url().includes('/api/fs/batch-copy') && r.status() === 202);
    await transfer(page, 'proj', 'Copy to…', 'cloud');
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
    await transfer(page, 'm.txt', 'Move to…', 'cloud');
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
});
