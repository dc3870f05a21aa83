import { useEffect, useState } from 'react';

type Render = (markdown: string) => string;
let loaded: Render | undefined;

/** Text in which Markdown could mean anything: markup characters, a list/heading/quote start, a bare link. */
const MARKDOWN_SYNTAX = /[\\`*_[\]<>#|~&]|^\s*([-+>]|\d+[.)])\s|https?:|www\./m;

/** One paragraph of text with no Markdown in it, as marked would render it (so the renderer need not load). */
export function plainParagraph(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || MARKDOWN_SYNTAX.test(trimmed) || /\n\s*\n/.test(trimmed)) return null;
  return `<p>${trimmed.replace(/"/g, '&quot;')}</p>`;
}

/**
 * `renderSafeMarkdown(markdown)` once the Markdown renderer (marked + DOMPurify) has loaded: the
 * shell's footer and announcement fetch it on demand, so a page without Markdown never pays for it.
 * '' until then, and for blank input. A plain sentence (the default footer) needs no renderer at all.
 */
export function useSafeMarkdown(markdown: string): string {
  const plain = plainParagraph(markdown);
  const source = markdown.trim() && plain === null ? markdown : '';
  const [render, setRender] = useState<Render | undefined>(() => loaded);
  useEffect(() => {
    if (!source || render) return;
    let live = true;
    void import('./markdown').then(({ renderSafeMarkdown }) => {
      loaded = renderSafeMarkdown;
      if (live) setRender(() => renderSafeMarkdown);
    });
    return () => {
      live = false;
    };
  }, [source, render]);
  if (plain !== null) return plain;
  return source && render ? render(source) : '';
}
