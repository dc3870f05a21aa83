/**
 * Markdown → sanitised HTML. GFM (tables, task lists, strikethrough, autolinks), highlighted code
 * (grammars loaded on demand), KaTeX math (loaded only when `$` appears). Mermaid fences are left as
 * `<pre class="md-mermaid">` for the view to draw (see enhance.ts). Every result is sanitised.
 */
import { Marked, type MarkedExtension, type Tokens } from 'marked';
import { highlightCode, loadLanguagesFor, resolveLanguage } from './highlight';
import { sanitizeHtml } from './sanitize';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
  );
}

const codeExtension: MarkedExtension = {
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const word = (lang ?? '').trim().split(/\s+/)[0] ?? '';
      if (word.toLowerCase() === 'mermaid') {
        return `<pre class="md-mermaid"><code class="language-mermaid">${escapeHtml(text)}</code></pre>\n`;
      }
      const label = /^[\w+#.-]{1,40}$/.test(word) ? word : '';
      const highlighted = label ? highlightCode(text, label) : null;
      const cls = label ? `hljs language-${label}` : 'hljs';
      return `<pre><code class="${cls}">${highlighted ?? escapeHtml(text)}</code></pre>\n`;
    },
  },
};

let plain: Marked | null = null;
let withMath: Marked | null = null;
let mathLoading: Promise<MarkedExtension | null> | null = null;

function build(extra?: MarkedExtension): Marked {
  const m = new Marked({ gfm: true, breaks: false, async: false });
  m.use(codeExtension);
  if (extra) m.use(extra);
  return m;
}

function loadMath(): Promise<MarkedExtension | null> {
  mathLoading ??= import('./math').then(
    (mod) => mod.mathExtension,
    () => {
      mathLoading = null;
      return null;
    },
  );
  return mathLoading;
}

/** A cheap check that a text might contain math, so KaTeX is fetched only then. */
export function mightHaveMath(markdown: string): boolean {
  return /\$[^$\n]+\$|\$\$/.test(markdown);
}

export function hasMermaid(markdown: string): boolean {
  return /^ {0,3}(`{3,}|~{3,})[ \t]*mermaid\b/im.test(markdown);
}

/** Renders Markdown to sanitised HTML (loading grammars and KaTeX first when needed). */
export async function renderMarkdown(markdown: string): Promise<string> {
  const [, math] = await Promise.all([
    loadLanguagesFor(markdown),
    mightHaveMath(markdown) ? loadMath() : Promise.resolve(null),
  ]);
  let parser: Marked;
  if (math) parser = withMath ??= build(math);
  else parser = plain ??= build();
  const html = parser.parse(markdown, { async: false });
  return sanitizeHtml(html);
}

export { resolveLanguage };
