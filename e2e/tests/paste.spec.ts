import type { Browser, Page } from '@playwright/test';
import { BASE_URL } from '../support/env';
import { expect as baseExpect, seedStorage, test } from '../support/fixtures';
import { createPaste, deleteAllPastes, listPastes, RICH_MARKDOWN } from '../support/pastes';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

async function openInFreshContext(
  browser: Browser,
  link: string,
  width = 1280,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    locale: 'en-US',
    viewport: { width, height: width < 600 ? 844 : 900 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.goto(link);
  return { page, close: () => context.close() };
}

test.describe('text pastes', () => {
  test.describe.configure({ timeout: 90_000 });

  test.beforeEach(async ({ token }) => {
    await deleteAllPastes(token);
  });

  test('create with password and max views 2: two readers get it, the third sees it is gone', async ({
    adminPage: page,
    browser,
    token,
  }) => {
    // Four browser contexts and three Mermaid renders on two shared cores.
    test.setTimeout(120_000);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Share text' })).toBeVisible();
    await expect(page.getByText('Log in to share')).toBeHidden();

    await page.getByLabel('Paste content').fill(RICH_MARKDOWN);
    // Live preview: table, KaTeX and the Mermaid diagram render.
    const preview = page.getByTestId('markdown-body');
    await expect(preview.getByRole('table')).toBeVisible();
    await expect(preview.locator('.katex').first()).toBeVisible();
    await expect(preview.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
    await expect(preview.locator('.md-code-lang')).toHaveText('Python');

    await page.getByLabel('Remark').fill('Quarterly report');
    await page.getByRole('textbox', { name: /^Password/ }).fill('s3cret-pass');
    await page.getByLabel('Max views').fill('2');
    await page.getByRole('radio', { name: '1 day' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();

    const result = page.getByTestId('share-result');
    await expect(result).toBeVisible();
    await expect(result.getByRole('img', { name: 'QR code for the share link' })).toBeVisible();
    await expect(page.getByTestId('share-countdown')).toContainText('hides in');
    const link = (await page.getByTestId('share-link').textContent())!.trim();
    expect(link).toMatch(/\/paste\/[A-Za-z0-9_-]+$/);
    const path = new URL(link).pathname;

    const [row] = await listPastes(token);
    expect(row).toMatchObject({ remark: 'Quarterly report', has_password: true, max_views: 2, views: 0 });
    const hours = (new Date(row!.expires_at!).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThan(24.1);

    // Reader 1 (desktop): a wrong password shows the server's message, the right one opens it.
    const first = await openInFreshContext(browser, path);
    await expect(first.page.getByRole('heading', { name: 'This paste is password protected' })).toBeVisible();
    await first.page.getByRole('textbox', { name: 'Password' }).fill('wrong');
    await first.page.getByRole('button', { name: 'Unlock' }).click();
    await expect(first.page.getByRole('alert').filter({ hasText: /wrong password/i })).toBeVisible();
    await first.page.getByRole('textbox', { name: 'Password' }).fill('s3cret-pass');
    await first.page.getByRole('button', { name: 'Unlock' }).click();
    await expect(first.page.getByRole('heading', { name: 'Quarterly report' })).toBeVisible();
    await expect(first.page.getByTestId('remaining-views')).toHaveText('Views left: 1');
    await expect(first.page.getByTestId('markdown-body').getByRole('table')).toBeVisible();
    await expect(first.page.getByRole('link', { name: 'Raw' })).toHaveAttribute('href', /password=s3cret-pass/);
    await first.close();

    // Reader 2 on a phone-width screen: the last view.
    const second = await openInFreshContext(browser, path, 390);
    await second.page.getByRole('textbox', { name: 'Password' }).fill('s3cret-pass');
    await second.page.getByRole('button', { name: 'Unlock' }).click();
    await expect(second.page.getByRole('heading', { name: 'Quarterly report' })).toBeVisible();
    await expect(second.page.getByTestId('remaining-views')).toHaveText('Views left: 0');
    await expect(second.page.getByText('This was the last view')).toBeVisible();
    await expect(second.page.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
    const overflow = await second.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await second.close();

    // Reader 3: gone.
    const third = await openInFreshContext(browser, path);
    await expect(third.page.getByTestId('paste-gone')).toBeVisible();
    await expect(third.page.getByRole('heading', { name: 'This paste is no longer available' })).toBeVisible();
    await expect(third.page.getByRole('link', { name: 'Back to home' })).toBeVisible();
    await third.close();
  });

  test('an unknown slug shows not found', async ({ page }) => {
    await page.goto('/paste/no-such-paste-here');
    await expect(page.getByRole('heading', { name: 'Paste not found' })).toBeVisible();
  });

  test('a plain-text paste has line numbers; the owner edits it in place', async ({ adminPage: page, token }) => {
    const created = await createPaste(token, { content: 'line one\nline two\nline three', type: 'text' });
    await page.goto(`/paste/${created.slug}`);
    const plain = page.getByTestId('plain-text');
    await expect(plain).toContainText('line two');
    await expect(plain.locator('pre').first()).toHaveText('1\n2\n3');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Paste content' }).fill('line one\nedited');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(plain).toContainText('edited');
    const [row] = await listPastes(token);
    expect(row!.preview).toBe('line one\nedited');
  });

  test('without login the editor works, keeps a draft and asks to log in to share', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Log in to share')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create link' })).toBeDisabled();
    await page.getByLabel('Paste content').fill('# Draft title\n\nkept across reloads');
    await expect(page.getByTestId('markdown-body').getByRole('heading', { name: 'Draft title' })).toBeVisible();
    // Saved a moment after the last change: wait for it to land, not for a fixed time.
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('clipnest_paste_draft') ?? ''))
      .toContain('kept across reloads');
    await page.reload();
    await expect(page.getByLabel('Paste content')).toHaveValue('# Draft title\n\nkept across reloads');
  });

  test('import loads a text file up to 10 MB and refuses a larger one', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('radio', { name: 'Plain text' }).click();
    await page.getByTestId('import-file').setInputFiles({
      name: 'notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Imported\n\nfrom a file'),
    });
    await expect(page.getByLabel('Paste content')).toHaveValue('# Imported\n\nfrom a file');
    // A Markdown file switches the editor to Markdown.
    await expect(page.getByRole('radio', { name: 'Markdown' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('markdown-body').getByRole('heading', { name: 'Imported' })).toBeVisible();

    await page.getByTestId('import-file').setInputFiles({
      name: 'huge.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 97),
    });
    await expect(page.getByText('“huge.txt” is larger than 10 MB')).toBeVisible();
    await expect(page.getByLabel('Paste content')).toHaveValue('# Imported\n\nfrom a file');
  });

  test('a taken slug shows the server message; bad share options are caught inline', async ({
    adminPage: page,
    token,
  }) => {
    await createPaste(token, { content: 'first', slug: 'taken-slug' });
    await page.goto('/');
    await page.getByLabel('Paste content').fill('second');
    await page.getByLabel('Custom link suffix').fill('bad slug!');
    await page.getByLabel('Max views').fill('-1');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page.getByText('Use only letters, digits, - and _')).toBeVisible();
    await expect(page.getByText('Enter a whole number, 0 or more')).toBeVisible();
    await page.getByLabel('Custom link suffix').fill('taken-slug');
    await page.getByLabel('Max views').fill('');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page.getByText(/link suffix is taken/i)).toBeVisible();
  });

  test('text management finds, edits and deletes pastes', async ({ adminPage: page, token }) => {
    await createPaste(token, { content: '# Alpha\n\nneedle-alpha body', remark: 'alpha report', slug: 'alpha-report' });
    await createPaste(token, { content: 'beta body', remark: 'beta notes', slug: 'beta-notes' });
    await createPaste(token, { content: 'gamma body', remark: 'gamma notes', slug: 'gamma-notes' });

    await page.goto('/admin/text-management');
    await expect(page.getByTestId('paste-row')).toHaveCount(3);

    await page.getByRole('searchbox', { name: 'Search slug, remark or content' }).fill('needle-alpha');
    await expect(page.getByTestId('paste-row')).toHaveCount(1);
    const row = page.getByTestId('paste-row').filter({ hasText: 'alpha report' });

    // View (does not count a view) and edit.
    await row.getByRole('button', { name: 'View “alpha-report”' }).click();
    const viewDialog = page.getByRole('dialog', { name: 'alpha report' });
    await expect(viewDialog.getByRole('heading', { name: 'Alpha', exact: true })).toBeVisible();
    await viewDialog.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “alpha-report”' });
    await edit.getByLabel('Remark').fill('alpha renamed');
    await edit.getByRole('radio', { name: '7 days' }).click();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(row.or(page.getByTestId('paste-row'))).toContainText('alpha renamed');
    let [alpha] = await listPastes(token, 'needle-alpha');
    expect(alpha).toMatchObject({ remark: 'alpha renamed', views: 0 });
    expect(alpha!.expires_at).not.toBeNull();

    // Delete one, confirming with its slug.
    await page.getByTestId('paste-row').getByRole('button', { name: 'More actions: alpha-report' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete “alpha-report”?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No paste matches “needle-alpha”')).toBeVisible();
    [alpha] = await listPastes(token, 'needle-alpha');
    expect(alpha).toBeUndefined();

    // Batch delete the other two.
    await page.getByRole('searchbox', { name: 'Search slug, remark or content' }).fill('');
    await expect(page.getByTestId('paste-row')).toHaveCount(2);
    await page.getByRole('checkbox', { name: 'Select all on this page' }).click();
    await page.getByRole('button', { name: 'Delete (2)' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete 2 selected pastes?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('No pastes yet')).toBeVisible();
    expect(await listPastes(token)).toEqual([]);
  });

  test('a key holder shares with its key and manages only its own pastes', async ({ page, token }) => {
    const { createKey, deleteAllKeys, Perm, uniqueName } = await import('../support/api');
    await deleteAllKeys(token);
    await createPaste(token, { content: 'admin only', remark: 'admin paste', slug: 'admin-paste' });
    const key = await createKey(token, { name: uniqueName('writer'), permissions: Perm.TEXT });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key.key);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/admin\/text-management$/);

    await page.goto('/');
    await expect(page.getByText('Log in to share')).toBeHidden();
    await page.getByLabel('Paste content').fill('# From a key');
    await page.getByLabel('Remark').fill('key paste');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect(page.getByTestId('share-link')).toBeVisible();

    await page.goto('/admin/text-management');
    await expect(page.getByTestId('paste-row')).toHaveCount(1);
    await expect(page.getByTestId('paste-row')).toContainText('key paste');
    await expect(page.getByText('admin paste')).toBeHidden();
    await deleteAllKeys(token);
  });

  test('a key without the text permission is told why it cannot share', async ({ page, token }) => {
    const { createKey, deleteAllKeys, Perm, uniqueName } = await import('../support/api');
    await deleteAllKeys(token);
    const key = await createKey(token, { name: uniqueName('files'), permissions: Perm.FILE_SHARE });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'API key' }).click();
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key.key);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/admin\/file-management$/);
    await page.goto('/');
    await expect(page.getByText('does not have the text permission')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create link' })).toBeDisabled();
    await deleteAllKeys(token);
  });

  test('phones get cards in text management', async ({ page, token }) => {
    await createPaste(token, { content: 'phone body', remark: 'phone paste', slug: 'phone-paste' });
    await page.setViewportSize({ width: 390, height: 844 });
    await seedStorage(page, { admin_token: token });
    await page.goto('/admin/text-management');
    const card = page.getByTestId('paste-card').filter({ hasText: 'phone paste' });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('paste-row')).toBeHidden();
    await card.getByRole('button', { name: 'Edit “phone-paste”' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit “phone-paste”' })).toBeVisible();
  });
});
