import { describe, expect, it } from 'vitest';
import { appShellRenderer, inlineScriptHashes } from './appShellCsp.js';
import { escapeAttribute, previewHead, sharePagePath } from './linkPreview.js';

const INDEX = `<!doctype html><html><head>
    <meta charset="UTF-8" />
    <meta name="description" content="Clipnest: self-hosted" />
    <title>Clipnest</title>
    <script>var s = '</head><meta name="description" content="x">';</script>
  </head><body></body></html>`;

describe('link previews in the shell', () => {
  it('reads share page paths as the web router does', () => {
    expect(sharePagePath('/paste/abc')).toEqual({ kind: 'paste', slug: 'abc' });
    expect(sharePagePath('/PASTE/abc/')).toEqual({ kind: 'paste', slug: 'abc' });
    expect(sharePagePath('/File/a%20b')).toEqual({ kind: 'file', slug: 'a b' });
    for (const bad of [
      '/paste',
      '/paste/',
      '/paste/a/b',
      '/paste/a%2Fb',
      '/paste/%E0%A4%A',
      '/paste/a%00',
      '/pastes/a',
      '/',
      `/paste/${'a'.repeat(65)}`,
      '/paste/abc//',
    ]) {
      expect(sharePagePath(bad), bad).toBeUndefined();
    }
  });

  it('escapes attribute text', () => {
    expect(escapeAttribute(`a"b'c<d>e&f\u0007`)).toBe('a&quot;b&#39;c&lt;d&gt;e&amp;f');
  });

  it('adds the meta before </head>, replaces the shell description only with its own, keeps the script hashes', () => {
    const render = appShellRenderer(INDEX);
    const plain = render();
    const siteOnly = render(previewHead({ siteName: 'Site' }, 'https://x.test'));
    const card = render(
      previewHead(
        { siteName: 'Site', share: { kind: 'file', slug: 'a b', title: 'T', description: 'D' } },
        'https://x.test',
      ),
    );
    const hashes = inlineScriptHashes(INDEX);
    for (const shell of [plain, siteOnly, card]) {
      expect(inlineScriptHashes(shell.html)).toEqual(hashes);
      for (const hash of hashes) expect(shell.csp).toContain(hash);
    }
    expect(siteOnly.html).toContain('content="Clipnest: self-hosted"');
    expect(siteOnly.html).toMatch(/<meta property="og:site_name" content="Site" \/>\s*<\/head>/);
    expect(card.html).not.toContain('content="Clipnest: self-hosted"');
    expect(card.html).toContain('<meta property="og:url" content="https://x.test/file/a%20b" />');
    expect(card.html).toMatch(/<meta name="description" content="D" \/>\s*<\/head><body>/);
    expect(card.html.indexOf('og:title')).toBeGreaterThan(card.html.indexOf('</script>'));
  });
});
