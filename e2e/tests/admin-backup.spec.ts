import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BackupFile } from '@clipnest/contract';
import { createKey, deleteAllKeys, listKeys, Perm, uniqueName } from '../support/api';
import { expect, test } from '../support/fixtures';
import { shot } from '../support/looks';

test.describe('backup and restore', () => {
  test.beforeEach(async ({ token }) => {
    await deleteAllKeys(token);
  });

  test('download a full backup, preview and restore it (merge)', async ({ adminPage: page, token }, testInfo) => {
    const kept = await createKey(token, { name: uniqueName('kept'), permissions: Perm.TEXT });
    const lost = await createKey(token, { name: uniqueName('lost'), permissions: Perm.FILE_SHARE });
    await page.goto('/admin/backup');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download backup' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^clipnest-backup-full-\d{8}-\d{6}\.json$/);
    const file = testInfo.outputPath('backup.json');
    await download.saveAs(file);
    const backup = JSON.parse(readFileSync(file, 'utf8')) as BackupFile;
    expect(backup).toMatchObject({ format: 'clipnest-backup', version: 1 });
    expect(backup.tables.api_keys?.rows).toHaveLength(2);

    // One key disappears after the backup; merge brings it back and keeps the other as is.
    await (await import('../support/api')).deleteKey(token, lost.id);
    await page.locator('input[type=file]').first().setInputFiles(file);
    await expect(page.getByTestId('restore-file-name')).toHaveText('backup.json');
    const preview = page.getByTestId('restore-preview');
    const keysRow = preview.getByTestId('preview-row').filter({ hasText: 'api_keys' });
    await expect(keysRow).toContainText('1 added, 1 kept as is');
    await page.getByRole('radio', { name: 'Overwrite' }).click();
    await expect(keysRow).toContainText('1 removed, 2 inserted');
    await page.getByRole('radio', { name: 'Merge' }).click();
    await expect(keysRow).toContainText('1 added, 1 kept as is');
    const shots = process.env.ADMIN_SHOTS_DIR ?? '/tmp/admin-shots';
    await shot(page, path.join(shots, 'backup-preview-en-light-1280.png'), true);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, path.join(shots, 'backup-preview-en-light-390.png'), true);
    await page.setViewportSize({ width: 1280, height: 900 });
    await preview.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByTestId('restore-result')).toContainText('API keys: 1 row restored');
    const names = (await listKeys(token)).map((k) => k.name).sort();
    expect(names).toEqual([kept.name, lost.name].sort());
  });

  test('refuses bad files with a clear message and changes nothing', async ({ adminPage: page, token }, testInfo) => {
    await createKey(token, { name: uniqueName('stay'), permissions: Perm.TEXT });
    const before = await listKeys(token);
    await page.goto('/admin/backup');

    // A module backup needs a module.
    await page.getByRole('radio', { name: 'Choose modules' }).click();
    await page.getByRole('button', { name: 'Download backup' }).click();
    await expect(page.getByText('Choose at least one module')).toBeVisible();

    const truncated = testInfo.outputPath('truncated.json');
    writeFileSync(truncated, '{"format":"clipnest-backup","version":1,"tables":{"api_');
    await page.locator('input[type=file]').first().setInputFiles(truncated);
    await expect(page.getByText('This file is not valid JSON')).toBeVisible();

    const future = testInfo.outputPath('future.json');
    writeFileSync(
      future,
      JSON.stringify({ format: 'clipnest-backup', version: 99, modules: ['key_management'], tables: {} }),
    );
    await page.locator('input[type=file]').first().setInputFiles(future);
    // A localised refusal; the server's own words (what is wrong with the file) behind "Details".
    await expect(page.getByTestId('restore-refusal')).toBeVisible();
    await expect(page.getByTestId('error-details')).toContainText('unsupported backup version 99');
    await expect(page.getByText('Nothing was changed.')).toBeVisible();

    const missing = testInfo.outputPath('missing.json');
    writeFileSync(
      missing,
      JSON.stringify({
        format: 'clipnest-backup',
        version: 1,
        app_version: '0.1.0',
        schema_version: '0001_foundation',
        created_at: new Date().toISOString(),
        encryption_key_fingerprint: 'x',
        modules: ['key_management'],
        tables: {},
      }),
    );
    await page.locator('input[type=file]').first().setInputFiles(path.resolve(missing));
    // A localised refusal; the server's own words (what is wrong with the file) behind "Details".
    await expect(page.getByTestId('restore-refusal')).toBeVisible();
    await expect(page.getByTestId('error-details')).toContainText('the table "api_keys" of its modules is missing');
    await expect(page.getByTestId('restore-preview')).toHaveCount(0);
    expect(await listKeys(token)).toEqual(before);
  });
});
