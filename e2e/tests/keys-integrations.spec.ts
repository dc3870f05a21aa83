// The key page's "Use in other apps" (issue 40, point 2): ShareX uploaders downloaded for that key, curl and
// Flameshot one-liners and an iOS Shortcut recipe; a key without the permission is told what it lacks.
import { readFile } from 'node:fs/promises';
import { createKey, deleteAllKeys, Perm } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect, test } from '../support/fixtures';

test.describe('key integrations', () => {
  test.beforeEach(async ({ token }) => {
    await deleteAllKeys(token);
  });

  test('downloads a ShareX uploader for the key and shows commands that use it', async ({ adminPage: page, token }) => {
    const key = await createKey(token, { name: 'screenshots', permissions: Perm.FILE_SHARE | Perm.TEXT });
    await page.goto('/admin/key-management');
    const row = page.getByTestId('key-row').filter({ hasText: 'screenshots' });
    await row.getByRole('button', { name: 'More actions: screenshots' }).click();
    await page.getByRole('menuitem', { name: 'Use in other apps' }).click();
    const dialog = page.getByRole('dialog', { name: 'Use “screenshots” in other apps' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('snippet-curl')).toHaveText(
      `curl -H "Authorization: ApiKey ${key.key}" -F file=@photo.png ${BASE_URL}/api/upload`,
    );
    await expect(dialog.getByTestId('shortcut-recipe')).toContainText(`${BASE_URL}/api/upload`);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Images and files (.sxcu)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('clipnest-file.sxcu');
    const sxcu = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown>;
    expect(sxcu).toMatchObject({
      RequestURL: `${BASE_URL}/api/upload`,
      Body: 'MultipartFormData',
      FileFormName: 'file',
      Headers: { Authorization: `ApiKey ${key.key}` },
    });
  });

  test('a key without file shares cannot download the file uploader and is told why', async ({
    adminPage: page,
    token,
  }) => {
    await createKey(token, { name: 'text-only', permissions: Perm.TEXT });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/key-management');
    const card = page.getByTestId('key-card').filter({ hasText: 'text-only' });
    await card.getByRole('button', { name: 'More actions: text-only' }).click();
    await page.getByRole('menuitem', { name: 'Use in other apps' }).click();
    const dialog = page.getByRole('dialog', { name: 'Use “text-only” in other apps' });
    await expect(dialog.getByRole('button', { name: 'Images and files (.sxcu)' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Text as a paste (.sxcu)' })).toBeEnabled();
    await expect(dialog).toContainText('This key needs the “File shares” permission for file uploads.');
  });
});
