import { expect, test } from '../support/fixtures';

/** Issue 35 point 11: Import asks before replacing the draft (as Clear does), and undo brings the draft back. */
test.describe('home: import over a draft', () => {
  const file = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('text from the file') };

  test('asks first; Cancel keeps the draft; Replace is one undoable step (Ctrl+Z and the toast’s Undo)', async ({
    page,
  }) => {
    await page.goto('/');
    const editor = page.getByLabel('Paste content');
    await editor.fill('my precious draft');
    const ask = page.getByRole('alertdialog');

    await page.getByTestId('import-file').setInputFiles(file);
    await expect(ask).toContainText('Replace the text in the editor with “notes.txt”?');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(editor).toHaveValue('my precious draft');

    await page.getByTestId('import-file').setInputFiles(file);
    await ask.getByRole('button', { name: 'Replace' }).click();
    await expect(editor).toHaveValue('text from the file');
    // The browser's own undo, in the editor: the draft comes back in one step.
    await editor.press('Control+z');
    await expect(editor).toHaveValue('my precious draft');

    await page.getByTestId('import-file').setInputFiles(file);
    await ask.getByRole('button', { name: 'Replace' }).click();
    await expect(editor).toHaveValue('text from the file');
    // The newest toast (the first import's may still be showing, stacked behind it).
    const toast = page.locator('[data-sonner-toast][data-front="true"]').filter({ hasText: 'Imported “notes.txt”' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(editor).toHaveValue('my precious draft');
  });

  test('an empty editor takes the file without asking', async ({ page }) => {
    await page.goto('/');
    await page.getByTestId('import-file').setInputFiles(file);
    await expect(page.getByLabel('Paste content')).toHaveValue('text from the file');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});
