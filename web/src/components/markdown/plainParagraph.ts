/** Text in which Markdown could mean anything: markup characters, a list/heading/quote start, a bare link. */
const MARKDOWN_SYNTAX = /[\\`*_[\]<>#|~&]|^\s*([-+>]|\d+[.)])\s|https?:|www\./m;

/**
 * One line of text with no Markdown in it, as marked would render it (so the renderer need not load). Anything with
 * markup characters (`<`, `>`, `&` included) or a line break is left to the renderer and its sanitiser.
 */
export function plainParagraph(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || MARKDOWN_SYNTAX.test(trimmed) || trimmed.includes('\n')) return null;
  return `<p>${trimmed.replace(/"/g, '&quot;')}</p>`;
}
