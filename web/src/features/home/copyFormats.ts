/**
 * Rendered Markdown for the clipboard. Plain text ("copy as plain text"): A formula is written as its TeX source (`$E = mc^2$`,
 * `$$…$$` for display math): KaTeX's HTML and MathML would come out as run-together glyphs ("E=mc2").
 */
function texSource(katex: Element): string {
  const tex = katex.querySelector('annotation[encoding="application/x-tex"]')?.textContent;
  if (tex != null) return tex.trim();
  // No annotation (older render): the MathML's characters, once.
  return (katex.querySelector('.katex-mathml')?.textContent ?? katex.textContent ?? '').trim();
}

export function htmlToPlainText(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const display of doc.querySelectorAll('.katex-display')) {
    display.replaceWith(`$$${texSource(display)}$$`);
  }
  for (const inline of doc.querySelectorAll('.katex')) {
    inline.replaceWith(`$${texSource(inline)}$`);
  }
  for (const block of doc.querySelectorAll('p, h1, h2, h3, h4, h5, h6, li, pre, blockquote, tr')) {
    block.append('\n');
  }
  return (doc.body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Rendered Markdown → HTML that reads right without KaTeX's stylesheet ("copy as HTML"): each formula is its MathML
 * only (browsers and editors draw MathML themselves). KaTeX's HTML drawing needs katex.css; pasted elsewhere it
 * shows as a second, run-together copy of the formula.
 */
export function htmlForCopy(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const katex of doc.querySelectorAll('.katex-display, .katex')) {
    if (!katex.isConnected) continue;
    const math = katex.querySelector('math');
    if (math) katex.replaceWith(math);
  }
  return doc.body.innerHTML;
}
