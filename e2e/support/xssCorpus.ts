/**
 * The security suite's Markdown XSS corpus: each payload tries to run `JS(id)`, which would open a
 * dialog AND send a beacon request to `/xss-beacon/<id>` (the spec watches for both). Counted by
 * docs/security.md; keep every entry a separate payload.
 */
const js = (id: string) => `navigator.sendBeacon('/xss-beacon/${id}');alert('${id}')`;
const jsUrl = (id: string) => `javascript:${js(id)}`;

export const XSS_PAYLOADS: Array<{ id: string; markdown: string }> = [
  // Raw HTML in Markdown.
  { id: 'script', markdown: `<script>${js('script')}</script>` },
  { id: 'img-onerror', markdown: `<img src="x" onerror="${js('img-onerror')}">` },
  { id: 'img-unquoted', markdown: `<img src=x onerror=${js('img-unquoted').replace(/'/g, '`')}>` },
  { id: 'svg-onload', markdown: `<svg onload="${js('svg-onload')}"></svg>` },
  { id: 'svg-script', markdown: `<svg><script>${js('svg-script')}</script></svg>` },
  { id: 'svg-animate', markdown: `<svg><animate onbegin="${js('svg-animate')}" attributeName="x" dur="1s"/></svg>` },
  {
    id: 'svg-set-href',
    markdown: `<svg><a><set attributeName="href" to="${jsUrl('svg-set-href')}"/><text y="20">set</text></a></svg>`,
  },
  { id: 'svg-xlink', markdown: `<svg><a xlink:href="${jsUrl('svg-xlink')}"><text y="20">xlink</text></a></svg>` },
  { id: 'iframe-js', markdown: `<iframe src="${jsUrl('iframe-js')}"></iframe>` },
  { id: 'iframe-srcdoc', markdown: `<iframe srcdoc="<script>parent.${js('iframe-srcdoc')}</script>"></iframe>` },
  { id: 'object', markdown: `<object data="${jsUrl('object')}"></object>` },
  { id: 'embed', markdown: `<embed src="data:text/html,<script>${js('embed')}</script>">` },
  { id: 'a-js', markdown: `<a href="${jsUrl('a-js')}">a-js</a>` },
  { id: 'a-tab', markdown: `<a href="jav&#x09;ascript:${js('a-tab')}">a-tab</a>` },
  { id: 'a-entity', markdown: `<a href="&#106;avascript:${js('a-entity')}">a-entity</a>` },
  { id: 'a-colon', markdown: `<a href="javascript&colon;${js('a-colon')}">a-colon</a>` },
  { id: 'a-data', markdown: `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a-data</a>` },
  { id: 'form-action', markdown: `<form action="${jsUrl('form-action')}"><button>form</button></form>` },
  { id: 'formaction', markdown: `<button formaction="${jsUrl('formaction')}">formaction</button>` },
  { id: 'details', markdown: `<details open ontoggle="${js('details')}">d</details>` },
  { id: 'input-autofocus', markdown: `<input autofocus onfocus="${js('input-autofocus')}">` },
  { id: 'select-autofocus', markdown: `<select autofocus onfocus="${js('select-autofocus')}"></select>` },
  { id: 'textarea-autofocus', markdown: `<textarea autofocus onfocus="${js('textarea-autofocus')}"></textarea>` },
  { id: 'video-source', markdown: `<video><source onerror="${js('video-source')}"></video>` },
  { id: 'audio', markdown: `<audio src="x" onerror="${js('audio')}"></audio>` },
  { id: 'body-onload', markdown: `<body onload="${js('body-onload')}">` },
  { id: 'marquee', markdown: `<marquee onstart="${js('marquee')}">m</marquee>` },
  { id: 'meta-refresh', markdown: `<meta http-equiv="refresh" content="0;url=${jsUrl('meta-refresh')}">` },
  { id: 'base-href', markdown: `<base href="${jsUrl('base-href')}//">` },
  { id: 'link-import', markdown: `<link rel="import" href="data:text/html,<script>${js('link-import')}</script>">` },
  { id: 'style-url', markdown: `<div style="background:url(${jsUrl('style-url')})">style-url</div>` },
  { id: 'template', markdown: `<template><script>${js('template')}</script></template>` },
  {
    id: 'noscript-mxss',
    markdown: `<noscript><p title="</noscript><img src=x onerror=${js('noscript-mxss')}>"></noscript>`,
  },
  {
    id: 'math-mxss',
    markdown: `<math><mtext><table><mglyph><style><img src=x onerror="${js('math-mxss')}"></style></mglyph></table></mtext></math>`,
  },
  { id: 'svg-style-mxss', markdown: `<svg></p><style><a id="</style><img src=1 onerror=${js('svg-style-mxss')}>">` },
  {
    id: 'form-math-mxss',
    markdown: `<form><math><mtext></form><form><mglyph><style></math><img src onerror="${js('form-math-mxss')}">`,
  },
  { id: 'comment-mxss', markdown: `<!--><img src=x onerror="${js('comment-mxss')}">-->` },
  { id: 'cdata-mxss', markdown: `<svg><![CDATA[><img src=x onerror="${js('cdata-mxss')}">]]></svg>` },
  // Markdown syntax.
  { id: 'md-link', markdown: `[md-link](${jsUrl('md-link')})` },
  { id: 'md-link-upper', markdown: `[md-link-upper](JAVASCRIPT:${js('md-link-upper')})` },
  { id: 'md-link-space', markdown: `[md-link-space](<  javascript:${js('md-link-space')}>)` },
  {
    id: 'md-link-title',
    markdown: `[md-link-title](https://example.com "t\\" onmouseover=\\"${js('md-link-title')}")`,
  },
  { id: 'md-image-title', markdown: `![img](x "t\\" onerror=\\"${js('md-image-title')}")` },
  { id: 'md-image-js', markdown: `![md-image-js](${jsUrl('md-image-js')})` },
  { id: 'md-autolink', markdown: `<https://example.com/"onmouseover="${js('md-autolink')}>` },
  { id: 'md-reference', markdown: `[md-reference][r1]\n\n[r1]: ${jsUrl('md-reference')}` },
  { id: 'md-heading-id', markdown: `# <img src=x onerror="${js('md-heading-id')}">` },
  { id: 'fence-lang', markdown: '```"><img src=x onerror=' + js('fence-lang') + '>\ncode\n```' },
  { id: 'fence-lang-attr', markdown: '```js" onmouseover="' + js('fence-lang-attr') + '\ncode\n```' },
  { id: 'fence-html', markdown: '```html\n<script>' + js('fence-html') + '</script>\n```' },
  { id: 'inline-code', markdown: '`<img src=x onerror="' + js('inline-code') + '">`' },
  { id: 'table-cell', markdown: `| a |\n|---|\n| <img src=x onerror="${js('table-cell')}"> |` },
  // KaTeX.
  { id: 'katex-href', markdown: `$\\href{${jsUrl('katex-href')}}{katex-href}$` },
  { id: 'katex-url', markdown: `$\\url{${jsUrl('katex-url')}}$` },
  { id: 'katex-href-data', markdown: `$\\href{data:text/html,<script>${js('katex-href-data')}</script>}{k}$` },
  { id: 'katex-text-html', markdown: `$$\\text{<img src=x onerror="${js('katex-text-html')}">}$$` },
  { id: 'katex-htmldata', markdown: `$\\htmlData{onerror=${js('katex-htmldata')}}{z}$` },
  // Mermaid (each block stands alone).
  {
    id: 'mermaid-label',
    markdown:
      '```mermaid\ngraph TD\n  A["<img src=x onerror=' + js('mermaid-label').replace(/'/g, '`') + '>"] --> B\n```',
  },
  {
    id: 'mermaid-click',
    markdown: '```mermaid\ngraph TD\n  A --> B\n  click A "' + jsUrl('mermaid-click').replace(/'/g, '`') + '"\n```',
  },
  {
    id: 'mermaid-loose',
    markdown:
      '```mermaid\n%%{init: {"securityLevel": "loose"}}%%\ngraph LR\n  X --> Y\n  click X call alert("mermaid-loose")\n```',
  },
  {
    id: 'mermaid-sequence',
    markdown:
      '```mermaid\nsequenceDiagram\n  Alice->>Bob: <img src=x onerror=' +
      js('mermaid-sequence').replace(/'/g, '`') +
      '>\n```',
  },
  {
    id: 'mermaid-anchor',
    markdown:
      '```mermaid\ngraph TD\n  A["<a href=\'' +
      jsUrl('mermaid-anchor').replace(/'/g, '`') +
      '\'>mermaid-anchor</a>"]\n```',
  },
];

/** All payloads as one Markdown document (blank lines between), opened and closed by plain text. */
export const XSS_DOCUMENT = [
  '# Security corpus',
  '',
  ...XSS_PAYLOADS.flatMap((p) => [p.markdown, '']),
  'Corpus end.',
].join('\n');
