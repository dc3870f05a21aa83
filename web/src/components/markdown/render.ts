/**
 * Markdown → sanitised HTML. GFM (tables, task lists, strikethrough, autolinks), highlighted code
 * (grammars loaded on demand), KaTeX math (loaded only when `$` appears). Mermaid fences are left as
 * `<pre class="md-mermaid">` for the view to draw (see enhance.ts). Every result is sanitised.
 */
import { Marked, type MarkedExtension, type Tokens } from 'marked';
import { resolveLanguage } from './grammars';
import { headingIds } from './headingIds';
import { highlightCode, loadLanguagesFor } from './highlight';
import { sanitizeHtml } from './sanitize';
import { nextTask } from '../../lib/nextTask';

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

/** Parsers by options ("math" × "breaks"), built once each. */
const parsers = new Map<string, Marked>();
let mathLoading: Promise<MarkedExtension | null> | null = null;

function parserFor(math: MarkedExtension | null, breaks: boolean): Marked {
  const key = `${math ? 'math' : 'plain'}:${breaks ? 'breaks' : 'gfm'}`;
  let parser = parsers.get(key);
  if (!parser) {
    parser = new Marked({ gfm: true, breaks, async: false });
    // Headings get GitHub's slug ids; the sanitiser prefixes every id with `user-content-` and
    // points in-page links at the prefixed ids, so `[x](#heading)` still scrolls to the heading.
    parser.use(codeExtension, headingIds());
    if (math) parser.use(math);
    parsers.set(key, parser);
  }
  return parser;
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

export interface RenderOptions {
  /** Single newlines become <br> (short site texts: footer, announcement). Default false (GFM). */
  breaks?: boolean;
}

/**
 * Renders Markdown to sanitised HTML (loading grammars and KaTeX first when needed). The one
 * Markdown render path of the app: pastes, uploaded .md files, footer and announcement alike.
 */
export async function renderMarkdown(markdown: string, options: RenderOptions = {}): Promise<string> {
  const [, math] = await Promise.all([
    loadLanguagesFor(markdown),
    mightHaveMath(markdown) ? loadMath() : Promise.resolve(null),
  ]);
  const html = parserFor(math, options.breaks ?? false).parse(markdown, { async: false });
  // Sanitising is a second pass over the whole document, in a task of its own: a long paste blocks the page in two
  // shorter stretches instead of one.
  await nextTask();
  return sanitizeHtml(html);
}

export { resolveLanguage };
