// Server-rendered first paint of shared paste pages (issue 36.4): an open plain-text paste's page carries its text in
// `#root`, rendered by react-dom/server, before any script runs. Reading the page never counts a view; a
// password-protected, encrypted, view-limited, expired or Markdown paste gets none of its content rendered (every
// public page gets the frame: the site title); the
// paste's text can add no markup to the page.
import type { PasteCreated, PasteView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptPaste } from '../../web/src/lib/e2ee';
import { dbTargets, type TestServer } from './support/harness.js';
import { createPaste, pasteViewCount } from './support/pastes.js';
import { SHELL_INDEX as INDEX, startShellServer } from './support/webShell.js';

/** What the page's `#root` holds (everything up to the app's script). */
function rootOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf('<script type="module" src="/assets/app-abc.js">');
  expect(start, 'the root element').toBeGreaterThan(html.indexOf('</head>'));
  expect(end).toBeGreaterThan(start);
  return html.slice(start + '<div id="root">'.length, end);
}

describe.each(dbTargets)('server-rendered paste pages on %s', (target) => {
  let server: TestServer;
  let token: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ server, close } = await startShellServer(target, INDEX, 'prepaint'));
    token = await server.login();
  });
  afterAll(async () => {
    await close?.();
  });

  async function page(slug: string): Promise<string> {
    const res = await fetch(`${server.url}/paste/${slug}`);
    expect(res.status).toBe(200);
    return res.text();
  }

  const views = async (slug: string) => Number((await pasteViewCount(server, slug)).views);

  it('an open plain-text paste: its text and title rendered in #root, no view counted however often it is read', async () => {
    const content = 'first line of the paste\nsecond line, with "quotes" & ampersands';
    const paste = await createPaste(server, { token }, { content, type: 'text', remark: 'Deploy notes' });
    for (let i = 0; i < 5; i++) {
      const root = rootOf(await page(paste.slug));
      expect(root).toContain('data-prepaint="paste"');
      expect(root).toContain('>Clipnest</span></a>');
      expect(root).toContain('first line of the paste\nsecond line, with &quot;quotes&quot; &amp; ampersands');
      expect(root).toMatch(/<h1[^>]*>Deploy notes<\/h1>/);
      // The line numbers of PlainTextView, as the app renders them.
      expect(root).toContain('1\n2</pre>');
    }
    expect(await views(paste.slug)).toBe(0);
    // The API read still counts, once.
    const read = await server.call<PasteView>('GET', `/api/paste/${paste.slug}`);
    expect(read.body.data!.content).toBe(content);
    expect(await views(paste.slug)).toBe(1);
    // A HEAD of the page renders nothing and counts nothing.
    const head = await fetch(`${server.url}/paste/${paste.slug}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await views(paste.slug)).toBe(1);
  });

  it('HTML and </script> in a paste are escaped: nothing of them is live markup', async () => {
    const content = '<img src=x onerror=alert(1)></script><script>alert(2)</script><!-- x --><div id="root">';
    const paste = await createPaste(server, { token }, { content, type: 'text', remark: '</title><b>r</b>' });
    const html = await page(paste.slug);
    const root = rootOf(html);
    expect(root).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(root).toContain('&lt;/title&gt;&lt;b&gt;r&lt;/b&gt;');
    // Only as text: no element, comment or attribute of its own.
    expect(root).not.toMatch(/<img|<script|<\/script|<!--|<b>|<div id="root"/i);
    // The page's only scripts are the shell's own.
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('a password, encrypted, view-limited, one-view, expired or Markdown paste: none of its content in the page, no view used', async () => {
    const secret = 'SECRET-body-x71Qa';
    const remark = 'SECRET-remark-m30Lc';
    const body = { content: `${secret}\n${secret}`, remark, type: 'text' as const };
    const withPassword = await createPaste(server, { token }, { ...body, password: 'pw-1234' });
    const limited = await createPaste(server, { token }, { ...body, max_views: 3 });
    const burn = await createPaste(server, { token }, { ...body, max_views: 1 });
    const markdown = await createPaste(server, { token }, { ...body, type: 'markdown' });
    const expiring = await createPaste(server, { token }, { ...body, expires_in: 1 });
    const enc = await encryptPaste({ content: secret, remark, type: 'text' });
    const encrypted = await server.call<PasteCreated>('POST', '/api/paste', {
      token,
      body: { content: enc.content, encryption: enc.encryption },
    });
    expect(encrypted.status).toBe(201);
    server.clock.advance(3_601_000);
    const slugs = [withPassword.slug, limited.slug, burn.slug, expiring.slug, encrypted.body.data!.slug];
    for (const slug of slugs) {
      for (let i = 0; i < 3; i++) {
        const html = await page(slug);
        expect(html, slug).not.toContain(secret);
        expect(html, slug).not.toContain(remark);
        expect(html, slug).not.toContain(enc.content.slice(0, 24));
        // The frame only (the site title), none of the paste.
        expect(rootOf(html), slug).toContain('data-prepaint="frame"');
        expect(rootOf(html), slug).not.toContain('<h1');
      }
    }
    // Markdown renders on the client (no sanitiser on the server): the frame only.
    const markdownRoot = rootOf(await page(markdown.slug));
    expect(markdownRoot).toContain('data-prepaint="frame"');
    expect(markdownRoot).not.toContain(secret);
    for (const slug of [withPassword.slug, limited.slug, burn.slug, encrypted.body.data!.slug]) {
      expect(await views(slug), slug).toBe(0);
    }
    // The one-view paste is still there for its reader.
    const read = await server.call<PasteView>('GET', `/api/paste/${burn.slug}`);
    expect(read.body.data!.content).toBe(body.content);
  });

  it('the admin panel and the precached /index.html get no first paint', async () => {
    for (const urlPath of ['/admin', '/admin/settings', '/index.html']) {
      const html = await (await fetch(server.url + urlPath)).text();
      expect(rootOf(html), urlPath).toBe('</div>\n    ');
    }
    expect(rootOf(await (await fetch(`${server.url}/upload`)).text())).toContain('data-prepaint="frame"');
  });
});
