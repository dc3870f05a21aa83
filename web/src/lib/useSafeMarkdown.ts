import { useEffect, useState } from 'react';

type Render = (markdown: string) => string;
let loaded: Render | undefined;

/**
 * `renderSafeMarkdown(markdown)` once the Markdown renderer (marked + DOMPurify) has loaded: the
 * shell's footer and announcement fetch it on demand, so a page without Markdown never pays for it.
 * '' until then, and for blank input.
 */
export function useSafeMarkdown(markdown: string): string {
  const source = markdown.trim() ? markdown : '';
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
  return source && render ? render(source) : '';
}
