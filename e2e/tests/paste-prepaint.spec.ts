import { BASE_URL } from '../support/env';
import { expect as baseExpect, test } from '../support/fixtures';
import { createPaste } from '../support/pastes';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

// Issue 36.4: an open plain-text paste's page arrives with its text painted by the server (react-dom/server), and the
// app's first render replaces that paint cleanly.
test.describe('server-painted paste pages', () => {
  test('the text shows without any script; the app then takes the page over without errors', async ({
    browser,
    token,
  }) => {
    const content = 'first line\n<b>not bold</b> & more\nthird line';
    const { slug } = await createPaste(token, { content, type: 'text', remark: 'Prepainted' });

    const noScript = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false, serviceWorkers: 'block' });
    const bare = await noScript.newPage();
    await bare.goto(`/paste/${slug}`);
    await expect(bare.getByRole('heading', { level: 1 })).toHaveText('Prepainted');
    await expect(bare.getByTestId('plain-text').locator('pre').last()).toHaveText(content);
    await expect(bare.locator('b')).toHaveCount(0);
    // Any public page: the frame with the site title.
    await bare.goto('/');
    await expect(bare.locator('[data-prepaint="frame"] header a[href="/"]')).toHaveText(/\S/);
    await noScript.close();

    const context = await browser.newContext({ baseURL: BASE_URL, locale: 'en-US', serviceWorkers: 'block' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      // React reports a broken takeover (a hydration or render error) on the console.
      if (message.type() === 'error' && !message.text().includes('Service Worker registration blocked')) {
        problems.push(message.text());
      }
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`/paste/${slug}`);
    await expect(page.getByTestId('paste-meta')).toBeVisible();
    await expect(page.locator('[data-prepaint]')).toHaveCount(0);
    await expect(page.getByTestId('plain-text')).toHaveCount(1);
    await expect(page.getByTestId('plain-text').locator('pre').last()).toHaveText(content);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Prepainted');
    expect(problems).toEqual([]);
    await context.close();
  });
});
