import { seriousViolations } from '../support/axe';
import { expect as baseExpect, seedStorage, test } from '../support/fixtures';
import { createPaste, deleteAllPastes, RICH_MARKDOWN } from '../support/pastes';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

// WCAG 2.1 AA (axe-core) on the paste screens, both themes.
for (const theme of ['light', 'dark'] as const) {
  test(`paste screens are accessible (${theme})`, async ({ page, token }) => {
    test.setTimeout(90_000);
    await deleteAllPastes(token);
    await createPaste(token, { content: RICH_MARKDOWN, remark: 'A11y paste', slug: `a11y-${theme}` });
    await createPaste(token, { content: 'locked', slug: `a11y-locked-${theme}`, password: 'pw' });
    await seedStorage(page, {
      themeMode: theme,
      language: 'en',
      admin_token: token,
      clipnest_paste_draft: JSON.stringify({ type: 'markdown', content: RICH_MARKDOWN }),
    });

    await page.goto('/');
    await expect(page.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`/paste/a11y-${theme}`);
    await expect(page.locator('.md-diagram img')).toBeVisible({ timeout: 15_000 });
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/admin/text-management');
    await expect(page.getByTestId('paste-row').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.evaluate(() => localStorage.removeItem('admin_token'));
    await page.goto(`/paste/a11y-locked-${theme}`);
    await expect(page.getByRole('button', { name: 'Unlock' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
