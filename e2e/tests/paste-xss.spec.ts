import { expect as baseExpect, seedStorage, test } from '../support/fixtures';
import { expectInert, watchForScript } from '../support/inert';
import { createPaste, deleteAllPastes, XSS_CORPUS } from '../support/pastes';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('paste rendering is inert', () => {
  test.describe.configure({ timeout: 90_000 });

  test.beforeEach(async ({ token }) => {
    await deleteAllPastes(token);
  });

  test('the XSS corpus in a shared paste runs nothing', async ({ page, token }) => {
    const seen = watchForScript(page);
    const created = await createPaste(token, { content: XSS_CORPUS, type: 'markdown', slug: 'xss-corpus' });
    await page.goto(`/paste/${created.slug}`);
    await expectInert(page, seen);
  });

  test('the XSS corpus in the Home live preview runs nothing', async ({ page }) => {
    const seen = watchForScript(page);
    await seedStorage(page, {
      clipnest_paste_draft: JSON.stringify({ type: 'markdown', content: XSS_CORPUS }),
    });
    await page.goto('/');
    await expectInert(page, seen);
  });

  test('the raw endpoint serves the corpus as inert plain text', async ({ page, token }) => {
    const seen = watchForScript(page);
    const created = await createPaste(token, { content: XSS_CORPUS, type: 'markdown' });
    const response = await page.goto(`/api/raw/${created.slug}`);
    expect(response!.headers()['content-type']).toMatch(/^text\/plain/);
    expect(response!.headers()['x-content-type-options']).toBe('nosniff');
    // No waiting for the page's tasks: a text/plain document runs no script, not even a timer.
    expect(seen.dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__xss ?? null)).toBeNull();
  });
});
