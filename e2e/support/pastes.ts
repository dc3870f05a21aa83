/** Paste setup and checks through the API (the UI under test is never used to arrange state). */
import type { CreatePasteInput, PasteCreated, PasteListItem, PasteListResponse } from '@clipnest/contract';
import { call } from './api';

async function ok<T>(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<T> {
  const { status, envelope } = await call<T>(method, path, options);
  if (status >= 300) throw new Error(`${method} ${path} → ${status}: ${envelope.message}`);
  return envelope.data as T;
}

export function createPaste(token: string, body: CreatePasteInput): Promise<PasteCreated> {
  return ok<PasteCreated>('POST', '/paste', { token, body });
}

export async function listPastes(token: string, search?: string): Promise<PasteListItem[]> {
  const qs = new URLSearchParams({ limit: '100' });
  if (search) qs.set('search', search);
  const data = await ok<PasteListResponse>('GET', `/pastes?${qs}`, { token });
  return data.items;
}

export async function deleteAllPastes(token: string): Promise<void> {
  for (;;) {
    const items = await listPastes(token);
    if (items.length === 0) return;
    await ok('DELETE', '/pastes/batch-delete', { token, body: { ids: items.map((p) => p.id) } });
  }
}

/** A Markdown document that uses every renderer feature of the "done when" scenario. */
export const RICH_MARKDOWN = [
  '# Quarterly numbers',
  '',
  'A table, a formula and a diagram.',
  '',
  '| Region | Q1 | Q2 |',
  '|---|---:|---:|',
  '| North | 12 | 15 |',
  '| South | 9 | 11 |',
  '',
  '- [x] collect data',
  '- [ ] review',
  '',
  'Growth: $g = \\frac{q_2 - q_1}{q_1}$',
  '',
  '$$',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  '$$',
  '',
  '```mermaid',
  'graph LR; Collect-->Review; Review-->Publish',
  '```',
  '',
  '```python',
  'def growth(a, b):',
  '    return (b - a) / a',
  '```',
].join('\n');

/**
 * Markup that tries to run script, set a marker global, escape its box or restyle the page.
 * Rendering it must be inert.
 */
export const XSS_CORPUS = [
  '# XSS corpus',
  '',
  '<script>window.__xss = "script"; alert("script")</script>',
  '',
  '<img src="x" onerror="window.__xss=\'img\';alert(\'img\')">',
  '',
  "[md js link](javascript:window.__xss='mdlink')",
  '',
  '<a href="javascript:alert(\'a\')" id="js-link">html js link</a>',
  '',
  '<a href="JaVaScRiPt&colon;alert(\'entity\')">entity link</a>',
  '',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>',
  '',
  '<svg><script>window.__xss="svgscript"</script><circle r="10" onload="window.__xss=\'svgonload\'"/></svg>',
  '',
  '<svg onload="window.__xss=\'svg\'"><a href="javascript:alert(\'svga\')"><text y="20">svg link</text></a></svg>',
  '',
  '<iframe src="javascript:alert(\'iframe\')"></iframe>',
  '<iframe srcdoc="<script>parent.__xss=\'srcdoc\'</script>"></iframe>',
  '<object data="javascript:alert(\'object\')"></object>',
  '<embed src="data:text/html,<script>alert(\'embed\')</script>">',
  '<form action="javascript:alert(\'form\')"><button>submit</button></form>',
  '',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'mxss\'"></style></mglyph></table></mtext></math>',
  '',
  '<details open ontoggle="window.__xss=\'details\'">details</details>',
  '<input autofocus onfocus="window.__xss=\'input\'">',
  '<video><source onerror="window.__xss=\'video\'"></video>',
  '<body onload="window.__xss=\'body\'">',
  '',
  '<div style="position:fixed;inset:0;z-index:9999;background:red" id="style-overlay">style overlay</div>',
  '',
  '<div class="fixed inset-0 z-50 bg-black" id="class-overlay">class overlay</div>',
  '',
  '<style>body { display: none !important }</style>',
  '',
  '<div style="background-image:url(javascript:alert(\'css\'))">css url</div>',
  '',
  '```html',
  '<script>window.__xss="fence"</script><img src=x onerror="window.__xss=\'fenceimg\'">',
  '```',
  '',
  '`<img src=x onerror="window.__xss=\'inlinecode\'">`',
  '',
  '```mermaid',
  'graph TD',
  '  A["<img src=x onerror=window.__xss=\'mermaid\'>"] --> B["<script>window.__xss=\'mermaid2\'</script>"]',
  '  click A "javascript:window.__xss=\'mermaidclick\'"',
  '  click B call alert("mermaidcall")',
  '```',
  '',
  '```mermaid',
  '%%{init: {"securityLevel": "loose", "themeCSS": "body { display: none }"}}%%',
  'graph LR',
  '  X["<b onmouseover=alert(1)>x</b>"] --> Y',
  '```',
  '',
  "KaTeX: $\\href{javascript:window.__xss='katex'}{click me}$ and $\\url{javascript:alert('url')}$",
  '',
  '$\\htmlClass{fixed inset-0}{x}$ $\\htmlStyle{position:fixed}{y}$ $\\htmlData{onerror=alert(1)}{z}$',
  '',
  '$$\\text{<img src=x onerror=alert("katex")>}$$',
  '',
  'The end.',
].join('\n');
