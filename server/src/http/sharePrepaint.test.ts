import { describe, expect, it } from 'vitest';
import { appShellRenderer, inlineScriptHashes } from './appShellCsp.js';
import { renderPrepaint, takesPrepaint, withPrepaint } from './sharePrepaint.js';
import { joinHeads } from './siteSettingsHead.js';

const INDEX = `<!doctype html><html><head>
    <title>Clipnest</title>
    <script>var s = '<div id="root"></div>';</script>
  </head><body>
    <div id="root"></div>
  </body></html>`;

describe('server-rendered first paint of a page', () => {
  it('goes into the empty #root, not into a script that spells it, and keeps the script hashes', () => {
    const render = appShellRenderer(INDEX);
    const shell = render({ markup: '<meta name="x" content="y" />', replacesDescription: false, root: '<p>hi</p>' });
    expect(shell.html).toContain(`<script>var s = '<div id="root"></div>';</script>`);
    expect(shell.html).toContain('<body>\n    <div id="root"><p>hi</p></div>\n  </body>');
    expect(inlineScriptHashes(shell.html)).toEqual(inlineScriptHashes(INDEX));
    // Without a root, or a shell without an empty #root: the page as before.
    expect(render({ markup: '', replacesDescription: false }).html).toContain('<div id="root"></div>\n  </body>');
    const noRoot = appShellRenderer(INDEX.replace('<div id="root"></div>\n', ''));
    expect(noRoot({ markup: '', replacesDescription: false, root: '<p>hi</p>' }).html).not.toContain('<p>hi</p>');
  });

  it('joins what the heads say of the first paint', async () => {
    const head = joinHeads(
      () => Promise.resolve({ markup: 'a', replacesDescription: false, prepaint: { siteTitle: 'S' } }),
      () =>
        Promise.resolve({
          markup: 'b',
          replacesDescription: true,
          prepaint: { paste: { slug: 'x', remark: '', content: 'c' } },
        }),
      () => Promise.resolve(undefined),
    );
    expect(await head({} as never)).toEqual({
      markup: 'ab',
      replacesDescription: true,
      prepaint: { siteTitle: 'S', paste: { slug: 'x', remark: '', content: 'c' } },
    });
    const none = joinHeads(() => Promise.resolve({ markup: 'a', replacesDescription: false }));
    expect(await none({} as never)).toEqual({ markup: 'a', replacesDescription: false });
  });

  it('paints public pages only: not the admin panel, not the precached /index.html', async () => {
    for (const path of ['/', '/upload', '/paste/abc', '/file/abc', '/mount-explorer/a/b']) {
      expect(takesPrepaint(path), path).toBe(true);
    }
    for (const path of ['/admin', '/Admin/settings', '/index.html']) expect(takesPrepaint(path), path).toBe(false);
    const head = withPrepaint(() =>
      Promise.resolve({ markup: '', replacesDescription: false, prepaint: { siteTitle: '<i>S</i>' } }),
    );
    const at = (path: string) => ({ req: { path } }) as never;
    expect((await head(at('/')))?.root).toContain('&lt;i&gt;S&lt;/i&gt;</span>');
    expect((await head(at('/admin')))?.root).toBeUndefined();
    // Nothing known of the site (its settings could not be read): nothing painted.
    const bare = withPrepaint(() => Promise.resolve({ markup: '', replacesDescription: false }));
    expect((await bare(at('/')))?.root).toBeUndefined();
  });

  it('renders the paste text with React: escaped, line numbers as the app shows them', () => {
    const html = renderPrepaint({
      siteTitle: 'Site',
      paste: { slug: 's1', remark: '', content: '<b>x</b>\n</script>' },
    });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;\n&lt;/script&gt;</pre>');
    expect(html).toContain('>1\n2</pre>');
    // No title: the page's path stands in.
    expect(html).toMatch(/<h1[^>]*>\/paste\/s1<\/h1>/);
    expect(html).not.toMatch(/<b>|<\/script>/);
    // The frame alone: the site title in the header, no heading of a page.
    const frame = renderPrepaint({ siteTitle: 'Site' });
    expect(frame).toContain('>Site</span></a>');
    expect(frame).toContain('data-prepaint="frame"');
    expect(frame).not.toContain('<h1');
  });
});
