import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { adminToken, uniqueName } from '../support/api';
import { entryRow as row } from '../support/explorer';
import { expect, test } from '../support/fixtures';
import { deleteAllMounts, localStorage, mount, writeTree } from '../support/mounts';

/** Issue 35 point 10: the explorer's text editor asks before discarding unsaved edits; Ctrl/⌘+S saves. */
test.describe('explorer text editor: unsaved edits', () => {
  let root: string;

  test.beforeAll(async () => {
    const token = await adminToken();
    await deleteAllMounts(token);
    const local = await localStorage(token, uniqueName('editor-local'));
    root = local.root;
    writeTree(root, { 'notes/a.txt': 'first text', 'notes/b.txt': 'second text', 'notes/c.txt': 'third text' });
    await mount(token, 'Local', '/local', local.config.id);
  });

  async function openEditor(page: Page, name: string) {
    await page.goto('/mount-explorer/local/notes');
    await row(page, name).dblclick();
    const editor = page.getByTestId('fs-editor');
    await expect(editor).not.toHaveValue('');
    return editor;
  }

  test('Esc and × ask before discarding; "Cancel" keeps the edits', async ({ adminPage: page }) => {
    const editor = await openEditor(page, 'a.txt');
    await editor.fill('my unsaved edit');
    const ask = page.getByRole('alertdialog');

    await editor.press('Escape');
    await expect(ask).toContainText('Discard your changes to “a.txt”?');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toHaveCount(0);
    await expect(editor).toHaveValue('my unsaved edit');

    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toHaveCount(0);
    await expect(editor).toHaveValue('my unsaved edit');

    // Confirming discards: the dialog closes and the file is unchanged.
    await editor.press('Escape');
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByTestId('fs-editor')).toHaveCount(0);
    await expect(page).not.toHaveURL(/preview=/);
    expect(readFileSync(path.join(root, 'notes/a.txt'), 'utf8')).toBe('first text');
  });

  test('a click outside asks before discarding', async ({ adminPage: page }) => {
    const editor = await openEditor(page, 'a.txt');
    await editor.fill('my unsaved edit');
    const ask = page.getByRole('alertdialog');
    await page.mouse.click(5, 5);
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(editor).toHaveValue('my unsaved edit');
  });

  test('nothing changed: Esc closes at once', async ({ adminPage: page }) => {
    const editor = await openEditor(page, 'c.txt');
    await editor.press('Escape');
    await expect(page.getByTestId('fs-editor')).toHaveCount(0);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });

  test('Ctrl+S saves (and never opens the browser’s save); then Esc closes without asking', async ({
    adminPage: page,
  }) => {
    const editor = await openEditor(page, 'b.txt');
    await editor.fill('saved with the keyboard');
    await expect(page.getByTestId('fs-editor-state')).toHaveText('Unsaved changes');
    await editor.press('Control+s');
    await expect(page.getByText('“b.txt” saved')).toBeVisible();
    await expect.poll(() => readFileSync(path.join(root, 'notes/b.txt'), 'utf8')).toBe('saved with the keyboard');
    await expect(editor).toHaveValue('saved with the keyboard');
    await expect(page.getByTestId('fs-editor-state')).not.toHaveText('Unsaved changes');
    await editor.press('Meta+s');
    await editor.press('Escape');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByTestId('fs-editor')).toHaveCount(0);
  });
});
