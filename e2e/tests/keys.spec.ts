import { createKey, deleteAllKeys, listKeys, Perm, uniqueName } from '../support/api';
import { expect, seedStorage, test } from '../support/fixtures';
import { ensureMount } from '../support/mounts';

test.describe('key management', () => {
  test.beforeEach(async ({ token }) => {
    await deleteAllKeys(token);
  });

  test('create, edit and delete a key', async ({ adminPage: page, token }) => {
    await ensureMount(token, '/team');
    await page.goto('/admin/key-management');
    await expect(page.getByText('No API keys yet')).toBeVisible();

    // Create — inline validation first.
    await page.getByRole('button', { name: 'New key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Give the key a name')).toBeVisible();

    const name = uniqueName('e2e');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel(/Custom key/).fill('bad key!');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Use only letters, digits, _ and -')).toBeVisible();
    await dialog.getByLabel(/Custom key/).fill('e2e_custom-key-123');

    // Permissions: preset + one extra bit; custom expiry.
    await dialog.getByRole('radio', { name: 'Uploader' }).click();
    await dialog.getByRole('checkbox', { name: 'WebDAV read' }).click();
    await dialog.getByRole('radio', { name: 'Custom' }).click();
    await dialog.getByLabel('Days until expiry').fill('0');
    await expect(dialog.getByText('Enter a whole number of days from 1 to 3650')).toBeVisible();
    await dialog.getByLabel('Days until expiry').fill('14');
    await dialog.getByLabel('Base path').fill('/team');
    await dialog.getByRole('switch', { name: 'Guest key' }).click();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const created = page.getByRole('dialog', { name: 'Key created' });
    await expect(created.getByTestId('created-key')).toHaveText('e2e_custom-key-123');
    await created.getByRole('button', { name: 'Done' }).click();

    const row = page.getByTestId('key-row').filter({ hasText: name });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Guest');
    await expect(row).toContainText('/team');
    await expect(row).toContainText('Never used');

    let [key] = await listKeys(token);
    expect(key).toMatchObject({
      name,
      key: 'e2e_custom-key-123',
      role: 'UPLOADER',
      permissions: Perm.TEXT | Perm.FILE_SHARE | Perm.MOUNT_VIEW | Perm.MOUNT_UPLOAD | Perm.WEBDAV_READ,
      basic_path: '/team',
      is_guest: 1,
      enabled: true,
    });
    const days = (new Date(key!.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThan(14.1);

    // Edit.
    await row.getByRole('button', { name: `Edit “${name}”` }).click();
    const edit = page.getByRole('dialog', { name: `Edit “${name}”` });
    const renamed = `${name}-renamed`;
    await edit.getByLabel('Name', { exact: true }).fill(renamed);
    await edit.getByRole('radio', { name: 'Full access' }).click();
    await edit.getByRole('radio', { name: 'Never' }).click();
    await edit.getByRole('switch', { name: 'Enabled' }).click();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    const renamedRow = page.getByTestId('key-row').filter({ hasText: renamed });
    await expect(renamedRow).toContainText('All permissions');
    await expect(renamedRow).toContainText('Disabled');

    [key] = await listKeys(token);
    expect(key).toMatchObject({ name: renamed, role: 'FULL', permissions: Perm.ALL, expires_at: null, enabled: false });

    // Delete, confirming with the key's name.
    await renamedRow.getByRole('button', { name: `More actions: ${renamed}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete “${renamed}”?` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No API keys yet')).toBeVisible();
    expect(await listKeys(token)).toEqual([]);
  });

  test('a duplicate name shows the server message', async ({ adminPage: page }) => {
    await page.goto('/admin/key-management');
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: i === 0 ? 'Create your first key' : 'New key' }).click();
      const dialog = page.getByRole('dialog', { name: 'New API key' });
      await dialog.getByLabel('Name', { exact: true }).fill('same-name');
      await dialog.getByRole('button', { name: 'Create key' }).click();
      if (i === 0)
        await page.getByRole('dialog', { name: 'Key created' }).getByRole('button', { name: 'Done' }).click();
      else await expect(dialog.getByRole('alert')).toContainText('already exists');
    }
  });

  test('phones get cards with the same actions', async ({ adminPage: page, token }) => {
    const { createKey } = await import('../support/api');
    await createKey(token, { name: 'phone-key', permissions: Perm.TEXT });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/key-management');
    const card = page.getByTestId('key-card').filter({ hasText: 'phone-key' });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('key-row')).toBeHidden();
    await card.getByRole('button', { name: 'Edit “phone-key”' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit “phone-key”' })).toBeVisible();
  });
  test('base path: picked in the tree and checked by the server; a key holder sent back is told why', async ({
    adminPage: page,
    token,
    browser,
  }) => {
    await ensureMount(token, '/team');
    await page.goto('/admin/key-management');
    await page.getByRole('button', { name: 'New key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    const name = uniqueName('picker');
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    // A path no mount holds: the server refuses it, and the form says why in the UI's words.
    await dialog.getByLabel('Base path').fill('/no-such-mount');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('No mount holds this path: pick a folder in the tree')).toBeVisible();
    // The folder picker over the tree.
    await dialog.getByRole('button', { name: 'Browse the mount tree' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose the base path' });
    await expect(picker).toBeVisible();
    await picker.getByRole('button', { name: 'Up one folder' }).click();
    await picker.getByTestId('fs-folder-picker').getByRole('button', { name: 'team', exact: true }).click();
    await expect(picker).toContainText('/team');
    await picker.getByRole('button', { name: 'Use this folder' }).click();
    await expect(picker).toHaveCount(0);
    await expect(dialog.getByLabel('Base path')).toHaveValue('/team');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Key created' }).getByRole('button', { name: 'Done' }).click();
    expect((await listKeys(token)).find((k) => k.name === name)?.basic_path).toBe('/team');

    // A key holder who opens "All mounts" is sent back into /team with a message saying why.
    const key = await createKey(token, {
      name: uniqueName('holder'),
      permissions: Perm.MOUNT_VIEW,
      basic_path: '/team',
    });
    const context = await browser.newContext();
    const holder = await context.newPage();
    await seedStorage(holder, {
      api_key: key.key,
      api_key_permissions: String(key.permissions),
      api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: '/team', is_guest: 0, role: 'GENERAL' }),
    });
    await holder.goto('/mount-explorer');
    await expect(holder).toHaveURL(/\/mount-explorer\/team$/);
    await expect(holder.getByTestId('fs-denied')).toContainText('No permission for /');
    await expect(holder.getByTestId('fs-denied')).toContainText('This API key may only open /team');
    await context.close();
  });
});
