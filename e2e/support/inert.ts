/** Checks that rendered untrusted Markdown (the XSS corpus) ran nothing and escaped nothing. */
import type { Page } from '@playwright/test';
import { expect as baseExpect } from './fixtures';
import { afterPendingTasks, imagesSettled } from './settle';

// The machine running the suite is shared and busy: give page loads more time than the default.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Records every dialog and makes the page report marker globals; fails the test if anything ran. */
export function watchForScript(page: Page): { dialogs: string[] } {
  const seen = { dialogs: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return seen;
}

export async function expectInert(page: Page, seen: { dialogs: string[] }) {
  const body = page.getByTestId('markdown-body');
  await expect(body.getByRole('heading', { name: 'XSS corpus' })).toBeVisible();
  await expect(body).toContainText('The end.');
  // Both Mermaid blocks are drawn (as images) or reported as errors; KaTeX rendered.
  await expect(body.locator('pre.md-mermaid')).toHaveCount(0, { timeout: 20_000 });
  await expect(body.locator('.katex').first()).toBeVisible();
  // Late handlers (onerror of broken images, onload, autofocus) have had their turn.
  await imagesSettled(page);
  await body.hover();
  await page.keyboard.press('Tab');

  const report = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    const root = document.querySelector('[data-testid="markdown-body"]')!;
    const all = [...root.querySelectorAll('*')];
    return {
      marker: w.__xss ?? null,
      scripts: root.querySelectorAll('script').length,
      dangerousTags: root.querySelectorAll(
        'iframe, object, embed, form, style, button:not(.md-code-copy), link, meta, base',
      ).length,
      handlers: all.flatMap((el) =>
        [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}.${a.name}`),
      ),
      jsUrls: all
        .flatMap((el) =>
          ['href', 'src', 'xlink:href', 'action', 'formaction', 'data'].map((n) => el.getAttribute(n) ?? ''),
        )
        .filter((v) => /^\s*(javascript|vbscript|data:text\/html)/i.test(v)),
      fixed: all
        .filter(
          (el) => ['fixed', 'absolute', 'sticky'].includes(getComputedStyle(el).position) && !el.closest('.katex'),
        )
        .map((el) => el.outerHTML.slice(0, 80)),
      overlayClass:
        document.getElementById('user-content-class-overlay')?.className ??
        document.getElementById('class-overlay')?.className ??
        null,
      styleOverlay: (() => {
        const el = document.getElementById('user-content-style-overlay') ?? document.getElementById('style-overlay');
        return el ? getComputedStyle(el).position : null;
      })(),
      bodyDisplay: getComputedStyle(document.body).display,
      editable: root.querySelectorAll('input:not([disabled])').length,
      rootContains: getComputedStyle(root).contain,
      diagrams: root.querySelectorAll('.md-diagram img').length,
    };
  });
  expect(seen.dialogs).toEqual([]);
  expect(report.marker).toBeNull();
  expect(report.scripts).toBe(0);
  expect(report.dangerousTags).toBe(0);
  expect(report.handlers).toEqual([]);
  expect(report.jsUrls).toEqual([]);
  expect(report.fixed).toEqual([]);
  expect(report.overlayClass ?? '').not.toMatch(/fixed|inset|z-50/);
  expect(report.styleOverlay === null || report.styleOverlay === 'static').toBe(true);
  expect(report.bodyDisplay).not.toBe('none');
  expect(report.editable).toBe(0);
  expect(report.rootContains).toContain('paint');
  // The page chrome is still there and usable.
  await expect(page.getByRole('banner')).toBeVisible();
  // Code fences show markup as text.
  await expect(
    page.getByTestId('markdown-body').locator('pre code').filter({ hasText: '<script>window.__xss="fence"</script>' }),
  ).toBeVisible();
  // Clicking the neutralised links runs nothing.
  await page.getByTestId('markdown-body').getByText('html js link').click();
  await page.getByTestId('markdown-body').getByText('md js link').click();
  await afterPendingTasks(page);
  expect(seen.dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__xss ?? null)).toBeNull();
}
