// Security suite, stored XSS in the browser: the Markdown corpus (≥ 50 payloads) in the paste view,
// names/remarks/mount names/footer/announcement in every screen that shows them, and uploaded active
// content (HTML, SVG, XML, XHTML, HTML named .png) opened through every link. Each payload would open a
// dialog and send a beacon to /xss-beacon/<id>: no dialog and no beacon request may happen.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { call } from '../support/api';
import { BASE_URL } from '../support/env';
import { expect as baseExpect, test } from '../support/fixtures';
import { uploadViaApi } from '../support/files';
import { deleteAllMounts, localStorage, mount } from '../support/mounts';
import { createPaste } from '../support/pastes';
import { XSS_DOCUMENT, XSS_PAYLOADS } from '../support/xssCorpus';
import { afterPendingTasks, imagesSettled } from '../support/settle';

const expect = baseExpect.configure({ timeout: 15_000 });
const JS = (id: string) => `navigator.sendBeacon('/xss-beacon/${id}');alert('${id}')`;

/** Records dialogs and beacon requests (and answers the beacons so nothing else handles them). */
async function watch(page: Page) {
  const seen = { dialogs: [] as string[], beacons: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (request.url().includes('xss-beacon')) seen.beacons.push(request.url());
  });
  await page.route('**/xss-beacon/**', (route) => route.fulfill({ status: 204 }));
  return seen;
}

/** Lets late handlers (onerror of broken images, onload, focus, hover) run before the checks. */
async function settle(page: Page) {
  await imagesSettled(page);
  await page.mouse.move(200, 300);
  await page.keyboard.press('Tab');
  await afterPendingTasks(page);
}

test.describe('security: stored XSS', () => {
  test.describe.configure({ timeout: 120_000 });

  test(`the Markdown corpus (${XSS_PAYLOADS.length} payloads) in the paste view runs nothing`, async ({
    page,
    token,
  }) => {
    test.setTimeout(240_000);
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(XSS_PAYLOADS.map((p) => p.id)).size).toBe(XSS_PAYLOADS.length);
    const seen = await watch(page);
    // All at once first (payloads meeting each other), then each in a paste of its own: an unclosed
    // <style> or <noscript> of one payload swallows what follows it, so only alone is each one tried.
    const all = await createPaste(token, { content: XSS_DOCUMENT, type: 'markdown' });
    await page.goto(`/paste/${all.slug}`);
    await expect(page.getByTestId('markdown-body').getByRole('heading', { name: 'Security corpus' })).toBeVisible();
    await settle(page);
    const failures: string[] = [];
    for (const payload of XSS_PAYLOADS) {
      const paste = await createPaste(token, {
        content: `# P ${payload.id}\n\n${payload.markdown}\n`,
        type: 'markdown',
      });
      // A client-side navigation (no reload: the bundles would load 62 times on these slow cores).
      await page.evaluate((url) => {
        history.pushState(null, '', url);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, `/paste/${paste.slug}`);
      const body = page.getByTestId('markdown-body');
      await expect(body.getByRole('heading', { name: `P ${payload.id}` })).toBeVisible();
      // Diagrams are drawn (an image) or reported as errors; either way no longer busy.
      await expect(body.locator('pre.md-mermaid[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
      await imagesSettled(page);
      await body.hover();
      const report = await page.evaluate(() => {
        const root = document.querySelector('[data-testid="markdown-body"]')!;
        const all = [...root.querySelectorAll('*')];
        return [
          ...all.flatMap((el) =>
            [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}.${a.name}`),
          ),
          ...all
            .flatMap((el) =>
              ['href', 'src', 'xlink:href', 'action', 'formaction', 'data'].map((n) => el.getAttribute(n) ?? ''),
            )
            .filter((v) => /^\s*(javascript|vbscript|data:text\/html)/i.test(v)),
          ...[...root.querySelectorAll('script, iframe, object, embed, base, meta, link')].map((el) => el.tagName),
        ];
      });
      // Links left in the output are clicked: a javascript: URL would run.
      for (const link of await body.locator('a[href]').all()) {
        const href = (await link.getAttribute('href')) ?? '';
        if (!/^(https?:|\/|#)/.test(href)) await link.click().catch(() => {});
      }
      if (report.length > 0) failures.push(`${payload.id}: ${report.join(', ')}`);
    }
    await afterPendingTasks(page);
    expect(failures).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    expect(seen.beacons).toEqual([]);
    console.info(
      `[security] markdown XSS corpus: ${XSS_PAYLOADS.length} payloads tried, ${XSS_PAYLOADS.length - failures.length} passed`,
    );
  });

  test('file names, remarks, mount names, footer and announcement are text everywhere', async ({
    adminPage: page,
    token,
  }) => {
    const seen = await watch(page);
    const name = `<img src=x onerror="${JS('filename')}">.txt`;
    await uploadViaApi(token, name, 'hello', 'text/plain', {
      remark: `<script>${JS('remark')}</script><img src=x onerror="${JS('remark-img')}">`,
    });
    const { config, root } = await localStorage(token, `xss-${Date.now().toString(36)}`);
    writeFileSync(path.join(root, `<svg onload="${JS('fs-name').replace(/\//g, '_')}">.txt`), 'x');
    await deleteAllMounts(token);
    const m = await mount(token, `<img src=x onerror=alert('mount')>`, '/xss', config.id); // names: ≤ 50
    await call('PUT', `/mount/${m.id}`, { token, body: { remark: `<script>${JS('mount-remark')}</script>` } });
    const site = {
      site_footer_markdown: `footer <img src=x onerror="${JS('footer')}"> [f](javascript:${JS('footer-link')})`,
      site_announcement_enabled: true,
      site_announcement_content: `<script>${JS('announcement')}</script><svg onload="${JS('announcement-svg')}">`,
      site_title: `<img src=x onerror="${JS('title')}">`,
    };
    expect((await call('PUT', '/admin/settings/group/4', { token, body: site })).status).toBe(200);
    try {
      for (const route of [
        '/',
        '/admin/file-management',
        '/admin/mount-management',
        '/mount-explorer',
        '/mount-explorer/xss',
      ]) {
        await page.goto(route);
        await expect(page.getByRole('banner')).toBeVisible();
        await settle(page);
      }
      await page.goto('/mount-explorer/xss');
      await expect(page.getByTestId('fs-entry')).toHaveCount(1);
      expect(seen.dialogs).toEqual([]);
      expect(seen.beacons).toEqual([]);
    } finally {
      await call('PUT', '/admin/settings/group/4', {
        token,
        body: {
          site_footer_markdown: '',
          site_announcement_enabled: false,
          site_announcement_content: '',
          site_title: 'Clipnest',
        },
      });
      await deleteAllMounts(token);
    }
  });

  test('uploaded HTML, SVG, XML, XHTML and HTML named .png run nothing through any link', async ({
    adminPage: page,
    token,
  }) => {
    test.setTimeout(240_000);
    const seen = await watch(page);
    const html = `<!doctype html><html><body><script>${JS('html')}</script><img src=x onerror="${JS('html-img')}"></body></html>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="${JS('svg')}"><script>${JS('svg-script')}</script></svg>`;
    const xml = `<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">${JS('xml')}</x:script>`;
    const xhtml = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>${JS('xhtml')}</script></body></html>`;
    const files = [
      ['attack.html', html, 'text/html'],
      ['attack.svg', svg, 'image/svg+xml'],
      ['attack.xml', xml, 'application/xml'],
      ['attack.xhtml', xhtml, 'application/xhtml+xml'],
      ['html-named.png', html, 'image/png'],
      ['html-named-octet.png', html, 'application/octet-stream'],
      ['html-no-type.png', html, ''],
    ] as const;
    const { config, root } = await localStorage(token, `xss-files-${Date.now().toString(36)}`);
    await deleteAllMounts(token);
    await mount(token, 'active', '/active', config.id);
    let links = 0;
    try {
      for (const [name, content] of files) writeFileSync(path.join(root, name), content);
      for (const [name, content, type] of files) {
        const share = await uploadViaApi(token, name, content, type || 'application/octet-stream');
        const signed = await call<{ url: string }>(
          'GET',
          `/fs/file-link?path=${encodeURIComponent(`/active/${name}`)}`,
          {
            token,
          },
        );
        const urls = [
          `/file/${share.slug}`,
          `/api/file-view/${share.slug}`,
          `/api/file-download/${share.slug}`,
          signed.envelope.data!.url,
        ];
        for (const url of urls) {
          links++;
          try {
            await page.goto(url.startsWith('http') ? url : `${BASE_URL}${url}`, { waitUntil: 'load' });
            await imagesSettled(page);
          } catch (error) {
            // A download navigation is aborted by the browser: nothing was rendered.
            expect(String(error)).toMatch(/Download is starting|net::ERR_ABORTED/);
          }
        }
        // The explorer's preview of this file.
        await page.goto(`${BASE_URL}/mount-explorer/active`);
        await page.getByTestId('fs-entry').filter({ hasText: name }).first().dblclick();
        await expect(page.getByRole('dialog')).toBeVisible();
        await imagesSettled(page);
        await page.keyboard.press('Escape');
        links++;
      }
      expect(seen.dialogs).toEqual([]);
      expect(seen.beacons).toEqual([]);
      console.info(`[security] uploaded active content: ${links} links opened, ${links} inert`);
    } finally {
      await deleteAllMounts(token);
    }
  });
});
