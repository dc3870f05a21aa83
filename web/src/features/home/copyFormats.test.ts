// @vitest-environment jsdom
// "Copy as plain text" writes a formula as its TeX source, once: not KaTeX's glyphs run together ("E=mc2").
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../components/markdown/render';
import { htmlForCopy, htmlToPlainText } from './copyFormats';

describe('copy as plain text and HTML', () => {
  it('writes inline and display math as TeX between dollars', async () => {
    const html = await renderMarkdown('# Title\n\nEnergy: $E = mc^2$ here.\n\n$$\n\\frac{a}{b}\n$$\n\n- item $x_1$');
    expect(htmlToPlainText(html)).toBe('Title\n\nEnergy: $E = mc^2$ here.\n\n$$\\frac{a}{b}$$\n\nitem $x_1$');
  });

  it('keeps Mermaid as its source and other text as is', async () => {
    const html = await renderMarkdown('Costs **$5** and $6.\n\n```mermaid\ngraph LR; A-->B\n```');
    expect(htmlToPlainText(html)).toBe('Costs $5 and $6.\n\ngraph LR; A-->B');
  });

  it('copies formulas as HTML as their MathML only, once', async () => {
    const html = await renderMarkdown('Energy: $E = mc^2$.\n\n$$\n\\frac{a}{b}\n$$');
    const box = document.createElement('div');
    box.innerHTML = htmlForCopy(html);
    expect(box.querySelectorAll('math')).toHaveLength(2);
    expect(box.querySelector('.katex, .katex-html, .katex-display')).toBeNull();
    expect(box.querySelectorAll('math[display="block"]')).toHaveLength(1);
    // What a reader sees: the MathML, once (the TeX annotation is not drawn).
    for (const annotation of box.querySelectorAll('annotation')) annotation.remove();
    expect(box.querySelector('p')?.textContent?.replace(/\s+/g, '')).toBe('Energy:E=mc2.');
  });
});
