import { describe, expect, it } from 'vitest';
import { appShellRenderer, inlineScriptHashes } from './appShellCsp.js';
import { prepaintPaste } from './sharePrepaint.js';
import { joinHeads } from './siteSettingsHead.js';

const INDEX = `<!doctype html><html><head>
    <title>Clipnest</title>
    <script>var s = '<div id="root"></div>';</script>
  </head><body>
    <div id="root"></div>
  </body></html>`;

describe('server-rendered first paint of a paste page', () => {
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

  it('joins the root markup of the heads that have one', async () => {
    const head = joinHeads(
      () => Promise.resolve({ markup: 'a', replacesDescription: false }),
      () => Promise.resolve({ markup: 'b', replacesDescription: true, root: '<p>r</p>' }),
      () => Promise.resolve(undefined),
    );
    expect(await head({} as never)).toEqual({ markup: 'ab', replacesDescription: true, root: '<p>r</p>' });
    const none = joinHeads(() => Promise.resolve({ markup: 'a', replacesDescription: false }));
    expect(await none({} as never)).toEqual({ markup: 'a', replacesDescription: false });
  });

  it('renders the text with React: escaped, line numbers as the app shows them', () => {
    const html = prepaintPaste({ slug: 's1', remark: '', content: '<b>x</b>\n</script>' });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;\n&lt;/script&gt;</pre>');
    expect(html).toContain('>1\n2</pre>');
    // No title: the page's path stands in.
    expect(html).toMatch(/<h1[^>]*>\/paste\/s1<\/h1>/);
    expect(html).not.toMatch(/<b>|<\/script>/);
  });
});
