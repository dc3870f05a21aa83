import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect as baseExpect, seedStorage, test } from '../support/fixtures';
import { createPaste, deleteAllPastes, RICH_MARKDOWN } from '../support/pastes';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

// PASTE_SHOTS_DIR=/tmp/paste-shots to collect them elsewhere.
const shots =
  process.env.PASTE_SHOTS_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'paste');

const themes = ['light', 'dark'] as const;
const languages = ['zh-CN', 'en'] as const;
const widths = [390, 1280] as const;

test.describe('paste screenshots', () => {
  test.beforeAll(async () => {
    const { adminToken } = await import('../support/api');
    const token = await adminToken();
    await deleteAllPastes(token);
    await createPaste(token, {
      content: RICH_MARKDOWN,
      remark: 'Quarterly numbers',
      slug: 'shot-rich',
      expires_in: 168,
    });
    await createPaste(token, { content: 'secret body', slug: 'shot-locked', password: 'pw', max_views: 5 });
    await createPaste(token, {
      content: 'line one\nline two\n\tindented line three',
      type: 'text',
      slug: 'shot-plain',
    });
    for (let i = 1; i <= 4; i++) {
      await createPaste(token, {
        content: `# Meeting notes ${i}\n\nAgenda and decisions.`,
        remark: `Meeting notes ${i}`,
        max_views: i % 2 ? 0 : 10,
        expires_in: i === 3 ? 1 : 720,
        ...(i === 2 ? { password: 'pw' } : {}),
      });
    }
  });

  for (const theme of themes) {
    for (const lang of languages) {
      for (const width of widths) {
        test(`home, paste view, text management: ${theme}, ${lang}, ${width}px`, async ({ page, token }) => {
          test.setTimeout(90_000);
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await seedStorage(page, {
            themeMode: theme,
            language: lang,
            admin_token: token,
            clipnest_paste_draft: JSON.stringify({ type: 'markdown', content: RICH_MARKDOWN }),
          });
          const suffix = `${lang}-${theme}-${width}`;

          await page.goto('/');
          await expect(page.locator('html')).toHaveAttribute('lang', lang);
          await expect(page.locator('#paste-editor')).toBeVisible();
          if (width >= 1024) await expect(page.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
          await page.screenshot({ path: path.join(shots, `home-${suffix}.png`), fullPage: true });
          if (width < 1024) {
            await page.getByRole('tab').nth(1).click();
            await expect(page.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
            await page.screenshot({ path: path.join(shots, `home-preview-${suffix}.png`), fullPage: true });
          }

          await page.goto('/paste/shot-rich');
          await expect(page.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
          await expect(page.locator('.md-code-lang')).toBeVisible();
          await page.screenshot({ path: path.join(shots, `paste-view-${suffix}.png`), fullPage: true });

          await page.goto('/admin/text-management');
          await expect(page.getByText('Meeting notes 1').filter({ visible: true }).first()).toBeVisible({
            timeout: 20_000,
          });
          await page.screenshot({ path: path.join(shots, `text-management-${suffix}.png`), fullPage: true });
        });
      }
    }
  }

  test('states: password prompt, plain text, not found, not logged in, edit dialog', async ({ page, token }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedStorage(page, { language: 'en', themeMode: 'light' });
    await page.goto('/paste/shot-locked');
    await expect(page.getByRole('button', { name: 'Unlock' })).toBeVisible();
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.screenshot({ path: path.join(shots, 'state-locked-en-light-1280.png'), fullPage: true });
    await page.goto('/paste/shot-plain');
    await expect(page.getByTestId('plain-text')).toBeVisible();
    await page.screenshot({ path: path.join(shots, 'state-plain-en-light-1280.png'), fullPage: true });
    await page.goto('/paste/does-not-exist');
    await expect(page.getByTestId('paste-notFound')).toBeVisible();
    await page.screenshot({ path: path.join(shots, 'state-notfound-en-light-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByText('Log in to share')).toBeVisible();
    await page.screenshot({ path: path.join(shots, 'state-anon-home-en-light-390.png'), fullPage: true });

    await page.evaluate((t) => localStorage.setItem('admin_token', t), token);
    for (const width of widths) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.goto('/');
      await page.getByLabel('Paste content').fill('# Shared from the editor\n\nHello.');
      await page.getByRole('textbox', { name: /^Password/ }).fill('pw');
      await page.getByRole('button', { name: 'Create link' }).click();
      await expect(page.getByTestId('share-result').getByRole('img')).toBeVisible();
      await page.screenshot({ path: path.join(shots, `state-created-en-light-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/admin/text-management');
    await page.getByRole('button', { name: 'Edit “shot-rich”' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.screenshot({ path: path.join(shots, 'state-edit-dialog-en-light-1280.png') });
  });
});
