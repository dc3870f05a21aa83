// Link previews (issue 36.5): shared paste and file pages carry Open Graph / Twitter meta, so a link pasted into a
// chat shows a card. Only an open, unprotected share shows anything of its own; reading the page never counts a
// view; protected shares show generic texts; the CSP of the shell stays as it was.
import { createHash } from 'node:crypto';
import type { FileView, PasteCreated, PasteView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encryptPaste } from '../../web/src/lib/e2ee';
import { upload } from './support/fileShares.js';
import { dbTargets, type TestServer } from './support/harness.js';
import { createPaste, pasteViewCount, pasteViewsToday } from './support/pastes.js';
import { SHELL_BOOT as BOOT, SHELL_DESCRIPTION, SHELL_INDEX as INDEX, startShellServer } from './support/webShell.js';

const HOUR = 3600_000;

/** The content of every `<meta property|name="key">` of the page. */
function metas(html: string, key: string): string[] {
  const pattern = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)" />`, 'g');
  return [...html.matchAll(pattern)].map((m) => m[1]!);
}

function meta(html: string, key: string): string | undefined {
  const found = metas(html, key);
  expect(found.length, key).toBeLessThanOrEqual(1);
  return found[0];
}

describe.each(dbTargets)('link previews on %s', (target) => {
  let server: TestServer;
  let token: string;
  let close: () => Promise<void>;
  const bootHash = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;

  beforeAll(async () => {
    ({ server, close } = await startShellServer(target, INDEX, 'og'));
    token = await server.login();
  });
  afterAll(async () => {
    await close?.();
  });

  /** GET of a page: the shell, its policy still allowing the boot script by its hash. */
  async function page(urlPath: string, headers: Record<string, string> = {}): Promise<string> {
    const res = await fetch(server.url + urlPath, { headers });
    expect(res.status, urlPath).toBe(200);
    expect(res.headers.get('content-type'), urlPath).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html, urlPath).toContain(`<script>${BOOT}</script>`);
    expect(res.headers.get('content-security-policy'), urlPath).toContain(bootHash);
    expect(html).toMatch(/<meta name="clipnest-csp-nonce" content="[^"]+" \/>/);
    return html;
  }

  const pasteRow = (slug: string) => pasteViewCount(server, slug);

  async function fileViews(slug: string): Promise<number> {
    const row = await server.built.database.db
      .selectFrom('files')
      .select('views')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    return Number(row.views);
  }

  /** A card with none of the share's own texts: the generic title and description. */
  function expectGeneric(html: string, title: string, url: string, secrets: string[]) {
    expect(meta(html, 'og:title')).toBe(title);
    expect(meta(html, 'og:description')).toBe('Open the link to view it.');
    expect(meta(html, 'twitter:title')).toBe(title);
    expect(meta(html, 'og:url')).toBe(url);
    for (const secret of secrets) expect(html).not.toContain(secret);
  }

  it('an open paste: its first line as the title, its text as plain text, the site name and its URL; no view counted', async () => {
    const content = `# Hello *world*\n\nSome **bold** [link](https://example.com/x) and \`code\`.\n\n${'more words '.repeat(30)}`;
    const paste = await createPaste(server, { token }, { content });
    const viewsBefore = await pasteViewsToday(server);
    const html = await page(`/paste/${paste.slug}`);
    expect(meta(html, 'og:site_name')).toBe('Clipnest');
    expect(meta(html, 'og:type')).toBe('article');
    expect(meta(html, 'og:title')).toBe('Hello world');
    const description = meta(html, 'og:description')!;
    expect(description.startsWith('Hello world Some bold link and code. more words more words')).toBe(true);
    expect(description.endsWith('…')).toBe(true);
    expect(Array.from(description).length).toBeLessThanOrEqual(160);
    expect(meta(html, 'og:url')).toBe(`${server.url}/paste/${paste.slug}`);
    expect(meta(html, 'twitter:card')).toBe('summary');
    expect(meta(html, 'twitter:title')).toBe('Hello world');
    expect(meta(html, 'twitter:description')).toBe(description);
    // Its own description replaces the shell's (one description on the page).
    expect(metas(html, 'description')).toEqual([description]);
    expect(html).not.toContain(SHELL_DESCRIPTION);
    // Before </head>, after the boot script.
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('og:title');
    expect(head.indexOf('og:title')).toBeGreaterThan(head.indexOf(BOOT));

    // The page read as the web router reads it (any case, a trailing slash, encoded), several times: never a view.
    for (const urlPath of [
      `/paste/${paste.slug}`,
      `/PASTE/${paste.slug}/`,
      `/Paste/${encodeURIComponent(paste.slug)}`,
    ]) {
      expect(meta(await page(urlPath), 'og:title'), urlPath).toBe('Hello world');
    }
    expect((await pasteRow(paste.slug)).views).toBe(0);
    expect(await pasteViewsToday(server)).toBe(viewsBefore);
    const viewed = await server.call<PasteView>('GET', `/api/paste/${paste.slug}`);
    expect(viewed.body.data!.views).toBe(1);
  });

  it('the title is the remark when there is one, and the site title comes from the settings; all escaped', async () => {
    const remark = `Notes "quoted" <b>&</b> 'single'`;
    const paste = await createPaste(server, { token }, { content: 'body text', remark, type: 'text' });
    const saved = await server.call('PUT', '/api/admin/settings/group/4', {
      token,
      body: { site_title: 'Team <Clip> & "Co"' },
    });
    expect(saved.status).toBe(200);
    try {
      const html = await page(`/paste/${paste.slug}`);
      expect(meta(html, 'og:title')).toBe('Notes &quot;quoted&quot; &lt;b&gt;&amp;&lt;/b&gt; &#39;single&#39;');
      expect(meta(html, 'og:description')).toBe('body text');
      expect(meta(html, 'og:site_name')).toBe('Team &lt;Clip&gt; &amp; &quot;Co&quot;');
      expect(html).not.toContain(remark);
      expect(html).not.toContain('<Clip>');
    } finally {
      await server.call('PUT', '/api/admin/settings/group/4', { token, body: { site_title: 'Clipnest' } });
    }
  });

  it('the URL is built from the request origin: forwarded headers are not believed without TRUST_PROXY', async () => {
    const paste = await createPaste(server, { token }, { content: 'origin check' });
    const html = await page(`/paste/${paste.slug}`, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(meta(html, 'og:url')).toBe(`${server.url}/paste/${paste.slug}`);
    expect(html).not.toContain('evil.example');
  });

  it('a password paste, an encrypted paste and a view-limited paste show none of their content, and no view is used', async () => {
    const secret = 'SECRET-body-q81Zr';
    const secretRemark = 'SECRET-remark-p02Xk';
    const withPassword = await createPaste(
      server,
      { token },
      { content: `# ${secret}\n${secret}`, remark: secretRemark, password: 'pw-1234' },
    );
    const limited = await createPaste(
      server,
      { token },
      { content: `# ${secret}\n${secret}`, remark: secretRemark, max_views: 2 },
    );
    const enc = await encryptPaste({ content: `# ${secret}`, remark: secretRemark, type: 'markdown' });
    const encrypted = await server.call<PasteCreated>('POST', '/api/paste', {
      token,
      body: { content: enc.content, encryption: enc.encryption },
    });
    expect(encrypted.status).toBe(201);
    const encryptedSlug = encrypted.body.data!.slug;

    for (const slug of [withPassword.slug, limited.slug, encryptedSlug]) {
      for (let i = 0; i < 3; i++) {
        const html = await page(`/paste/${slug}`);
        expectGeneric(html, 'Shared paste', `${server.url}/paste/${slug}`, [
          secret,
          secretRemark,
          enc.content.slice(0, 24),
        ]);
        expect(meta(html, 'og:site_name')).toBe('Clipnest');
        expect(metas(html, 'description')).toEqual(['Open the link to view it.']);
      }
    }
    // The limited paste still has both its views.
    expect(await pasteRow(limited.slug)).toEqual({ views: 0, max_views: 2 });
    const first = await server.call<PasteView>('GET', `/api/paste/${limited.slug}`);
    expect(first.body.data!.remaining_views).toBe(1);
    expectGeneric(await page(`/paste/${limited.slug}`), 'Shared paste', `${server.url}/paste/${limited.slug}`, [
      secret,
    ]);
    expect((await pasteRow(limited.slug)).views).toBe(1);
    // Used up: nothing of it at all, the site name only.
    await server.call<PasteView>('GET', `/api/paste/${limited.slug}`);
    const gone = await page(`/paste/${limited.slug}`);
    expect(meta(gone, 'og:title')).toBeUndefined();
    expect(meta(gone, 'og:site_name')).toBe('Clipnest');
    expect((await pasteRow(withPassword.slug)).views).toBe(0);
    expect((await pasteRow(encryptedSlug)).views).toBe(0);
  });

  it('an open file share: its name, type and size; protected ones generic; no view counted', async () => {
    const name = `a "b" <c> & 'd'.png`;
    const bytes = new Uint8Array(12_697).fill(7);
    const open = await upload(server, bytes, { token, filename: 'photo.png', type: 'image/png' });
    expect(open.status).toBe(201);
    // Renamed through the API: a multipart upload's file name carries `"` as %22.
    const renamed = await server.call<FileView>('PUT', `/api/files/${open.body.data!.id}`, {
      token,
      body: { filename: name },
    });
    expect(renamed.body.data!.filename).toBe(name);
    const file = renamed.body.data!;
    for (let i = 0; i < 3; i++) {
      const html = await page(`/file/${file.slug}`);
      expect(meta(html, 'og:type')).toBe('website');
      expect(meta(html, 'og:title')).toBe('a &quot;b&quot; &lt;c&gt; &amp; &#39;d&#39;.png');
      expect(meta(html, 'og:description')).toBe('PNG image · 12.4 KB');
      expect(meta(html, 'og:url')).toBe(`${server.url}/file/${file.slug}`);
      expect(meta(html, 'twitter:card')).toBe('summary');
      expect(metas(html, 'description')).toEqual(['PNG image · 12.4 KB']);
      expect(html).not.toContain(name);
    }
    expect(meta(await page(`/FILE/${file.slug}/`), 'og:title')).toContain('.png');
    expect(await fileViews(file.slug)).toBe(0);

    const secretName = 'SECRET-file-name-r7Yq.pdf';
    const locked = (await upload(server, 'x', { token, filename: secretName, fields: { password: 'pw-1234' } })).body
      .data as FileView;
    const limited = (await upload(server, 'x', { token, filename: secretName, fields: { max_views: '2' } })).body
      .data as FileView;
    for (const share of [locked, limited]) {
      for (let i = 0; i < 3; i++) {
        const html = await page(`/file/${share.slug}`);
        expectGeneric(html, 'Shared file', `${server.url}/file/${share.slug}`, [secretName, 'SECRET-file']);
      }
      expect(await fileViews(share.slug)).toBe(0);
    }
    const info = await server.call<{ views: number; max_views: number }>('GET', `/api/public/files/${limited.slug}`);
    expect(info.body.data).toMatchObject({ views: 1, max_views: 2 });
  });

  it('missing shares and bad slugs: the plain shell (or the site name only), never an error', async () => {
    for (const urlPath of ['/paste/no-such-paste', '/file/no-such-file', '/paste/UPPER_case-9/']) {
      const html = await page(urlPath);
      expect(meta(html, 'og:site_name'), urlPath).toBe('Clipnest');
      expect(meta(html, 'og:title'), urlPath).toBeUndefined();
      expect(meta(html, 'og:url'), urlPath).toBeUndefined();
      expect(metas(html, 'description'), urlPath).toEqual([SHELL_DESCRIPTION]);
    }
    for (const urlPath of [
      '/paste/%E0%A4%A',
      '/file/%E0%A4%A',
      `/paste/${'a'.repeat(300)}`,
      `/file/${'%41'.repeat(200)}`,
      '/paste/a%2Fb',
      '/paste/a%00b',
      '/paste/a/b',
      '/pastes/abc',
    ]) {
      const html = await page(urlPath);
      expect(html, urlPath).not.toContain('og:');
      expect(metas(html, 'description'), urlPath).toEqual([SHELL_DESCRIPTION]);
    }
    // Other pages are untouched.
    for (const urlPath of ['/', '/upload', '/admin', '/index.html']) expect(await page(urlPath)).not.toContain('og:');
  });

  it('a failed lookup serves the plain shell', async () => {
    const paste = await createPaste(server, { token }, { content: 'fine' });
    // The repository's read fails as a lost connection would (the service's deps, reached past `private`).
    const repository = server.built.services.linkPreviews['deps'].pastes;
    const spy = vi.spyOn(repository, 'findPreviewBySlug').mockRejectedValueOnce(new Error('database is down'));
    try {
      const html = await page(`/paste/${paste.slug}`);
      expect(html).not.toContain('og:');
      expect(metas(html, 'description')).toEqual([SHELL_DESCRIPTION]);
    } finally {
      spy.mockRestore();
    }
    expect(meta(await page(`/paste/${paste.slug}`), 'og:title')).toBe('fine');
  });

  // Last: it moves the server's clock.
  it('expired shares show nothing of their own', async () => {
    const paste = await createPaste(server, { token }, { content: 'EXPIRING-paste-text', expires_in: 1 });
    const file = (await upload(server, 'x', { token, filename: 'EXPIRING-file.txt', fields: { expires_in: '1' } })).body
      .data as FileView;
    expect(meta(await page(`/paste/${paste.slug}`), 'og:title')).toBe('EXPIRING-paste-text');
    expect(meta(await page(`/file/${file.slug}`), 'og:title')).toBe('EXPIRING-file.txt');
    server.clock.advance(2 * HOUR);
    for (const urlPath of [`/paste/${paste.slug}`, `/file/${file.slug}`]) {
      const html = await page(urlPath);
      expect(html, urlPath).not.toContain('EXPIRING');
      expect(meta(html, 'og:title'), urlPath).toBeUndefined();
      expect(meta(html, 'og:site_name'), urlPath).toBe('Clipnest');
    }
  });
  it('every page carries the public site settings, escaped, so the first render asks nothing for them', async () => {
    const put = await server.call('PUT', '/api/admin/settings/group/4', {
      token,
      body: { site_title: 'Team "<notes>" & co' },
    });
    expect(put.status).toBe(200);
    for (const urlPath of ['/', '/upload', '/admin', '/paste/nothing-here']) {
      const html = await page(urlPath);
      const content = /<meta name="clipnest-site-settings" content="([^"]*)" \/>/.exec(html)?.[1];
      expect(content, urlPath).toBeDefined();
      const decoded = content!
        .replaceAll('&quot;', '"')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&');
      expect(JSON.parse(decoded)).toMatchObject({ site_title: 'Team "<notes>" & co' });
      expect(html).not.toContain('<notes>');
    }
    await server.call('PUT', '/api/admin/settings/group/4', { token, body: { site_title: 'Clipnest' } });
  });
});
