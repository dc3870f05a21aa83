// Backup page → Import from CloudPaste (issue #24): pick a real CloudPaste 1.9.1 backup, read the dry run,
// map its LOCAL root to a folder here, confirm, see the result; screenshots light/dark, 390/1280, en/zh-CN.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { call } from '../support/api';
import { expect, test } from '../support/fixtures';
import { shot } from '../support/looks';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = [
  process.env.CLOUDPASTE_FIXTURES,
  path.resolve(here, '../../server/test/fixtures/cloudpaste-1.9.1'),
].find((p): p is string => Boolean(p) && existsSync(path.join(p!, 'full-backup.json')));

type Backup = { metadata: Record<string, unknown>; data: Record<string, Record<string, unknown>[]> };

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * The full backup, made safe to import into the shared e2e server: its settings and the default flag left out
 * (other specs expect the defaults) and mount paths of their own; resealed as CloudPaste would.
 */
function e2eBackup(tag: string): Backup {
  const backup = JSON.parse(readFileSync(path.join(FIXTURES!, 'full-backup.json'), 'utf8')) as Backup;
  backup.data.system_settings = [];
  for (const row of backup.data.storage_configs ?? []) row.is_default = 0;
  for (const row of backup.data.storage_mounts ?? []) row.mount_path = `/cp-${tag}${String(row.mount_path)}`;
  backup.metadata.tables = Object.fromEntries(Object.entries(backup.data).map(([t, rows]) => [t, rows.length]));
  backup.metadata.total_records = Object.values(backup.data).reduce((n, rows) => n + rows.length, 0);
  backup.metadata.checksum = createHash('sha256')
    .update(JSON.stringify(sorted(backup.data)))
    .digest('hex')
    .slice(0, 16);
  return backup;
}

test.describe('import from CloudPaste', () => {
  test.skip(!FIXTURES, 'CloudPaste fixtures not found');

  test('dry run, LOCAL root mapping, import and result', async ({ adminPage: page, token }, testInfo) => {
    const tag = Math.random().toString(36).slice(2, 7);
    const file = testInfo.outputPath('cloudpaste-full.json');
    writeFileSync(file, JSON.stringify(e2eBackup(tag), null, 2));
    // The default LOCAL_STORAGE_ROOTS is DATA_DIR/storage; the share storage (…/local) is off limits.
    const folder = path.join(process.env.CLIPNEST_E2E_DATA_DIR!, 'storage', `cloudpaste-${tag}`);
    mkdirSync(path.dirname(folder), { recursive: true });
    cpSync(path.join(FIXTURES!, 'storage'), folder, { recursive: true });
    const writable = (p: string) => {
      chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
      if (statSync(p).isDirectory()) for (const n of readdirSync(p)) writable(path.join(p, n));
    };
    writable(folder);
    const shots = process.env.ADMIN_SHOTS_DIR ?? '/tmp/admin-shots';

    await page.goto('/admin/backup');
    const panel = page.getByTestId('cloudpaste-import');
    await expect(page.getByRole('heading', { name: 'Import from CloudPaste' })).toBeVisible();

    // A cut-off file: refused, named as truncated.
    const truncated = testInfo.outputPath('truncated.json');
    writeFileSync(truncated, readFileSync(file, 'utf8').slice(0, 2000));
    await panel.getByTestId('cloudpaste-file-input').setInputFiles(truncated);
    await expect(panel.getByTestId('cloudpaste-refusal')).toBeVisible();
    await expect(panel.getByTestId('error-details')).toContainText('truncated');

    // Dry run without a mapping: the LOCAL config and what depends on it would be skipped.
    await panel.getByTestId('cloudpaste-file-input').setInputFiles(file);
    const report = panel.getByTestId('cloudpaste-report-table');
    await expect(report.getByTestId('cloudpaste-kind-pastes')).toContainText('Pastes880');
    await expect(report.getByTestId('cloudpaste-kind-files')).toContainText('File shares716');
    await expect(report.getByTestId('cloudpaste-kind-api_keys')).toContainText('API keys4310');
    await expect(panel.getByText('Not mapped: this config')).toBeVisible();

    // Map the root to the copied folder: everything would be created.
    await panel.getByTestId('cloudpaste-root-input').fill(folder);
    await panel.getByRole('button', { name: 'Check again' }).click();
    await expect(report.getByTestId('cloudpaste-kind-files')).toContainText('File shares770');
    await expect(report.getByTestId('cloudpaste-kind-mounts')).toContainText('Mounts220');
    await expect(panel.getByText(`Mapped to ${folder}`)).toBeVisible();
    await shot(page, path.join(shots, 'cloudpaste-dryrun-en-light-1280.png'), true);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, path.join(shots, 'cloudpaste-dryrun-en-light-390.png'), true);
    await shot(panel, path.join(shots, 'cloudpaste-panel-en-light-390.png'));
    await page.setViewportSize({ width: 1280, height: 900 });

    await panel.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Import' }).click();
    const result = panel.getByTestId('cloudpaste-result');
    await expect(result).toContainText('Imported');
    await expect(result.getByTestId('cloudpaste-kind-pastes').getByTestId('created')).toHaveText('8');
    await expect(result.getByTestId('cloudpaste-kind-files').getByTestId('created')).toHaveText('7');
    await shot(page, path.join(shots, 'cloudpaste-result-en-light-1280.png'), true);

    // The share links work: a paste and a file from the mapped folder.
    const paste = await page.request.get('/api/raw/hello-fixture');
    expect(await paste.text()).toBe('Hello from the CloudPaste fixture (set A).');
    const hello = await page.request.get('/api/file-download/hello-txt');
    expect(
      createHash('sha256')
        .update(await hello.body())
        .digest('hex'),
    ).toBe('7d7c370fe3085c9aca3cb318b4e5032ca091ba536b1a869f7482a5cbe65d7a96');

    // zh-CN, dark: a second dry run of the same file has nothing left to create.
    await page.evaluate(() => {
      localStorage.setItem('language', 'zh-CN');
      localStorage.setItem('themeMode', 'dark');
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: '从 CloudPaste 导入' })).toBeVisible();
    await page.getByTestId('cloudpaste-file-input').setInputFiles(file);
    await expect(page.getByTestId('cloudpaste-kind-pastes').getByTestId('created')).toHaveText('0');
    await page.getByTestId('cloudpaste-root-input').fill(folder);
    await shot(page, path.join(shots, 'cloudpaste-again-zh-dark-1280.png'), true);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, path.join(shots, 'cloudpaste-again-zh-dark-390.png'), true);
    await shot(page.getByTestId('cloudpaste-import'), path.join(shots, 'cloudpaste-panel-zh-dark-390.png'));

    // Leave no mounts behind for the explorer specs.
    const mounts = await call<{ items: { id: string; path: string }[] }>('GET', '/api/mount/list', { token });
    for (const m of mounts.envelope.data?.items ?? []) {
      if (m.path.startsWith(`/cp-${tag}`)) await call('DELETE', `/api/mount/${m.id}`, { token });
    }
  });
});
