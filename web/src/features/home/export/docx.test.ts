// @vitest-environment jsdom
// The Word export reads what the Markdown renderer produces: formulas must become Word equations (once each, not
// KaTeX's MathML + TeX + HTML run together as text) and Mermaid diagrams pictures, not their source.
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../components/markdown/render';
import { htmlToDocx } from './docx';

// A 1×1 PNG: the real drawing (Mermaid + canvas) needs a browser; the e2e export test covers it.
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

async function documentXml(markdown: string, drawn: string[] = []): Promise<{ xml: string; files: string[] }> {
  const html = await renderMarkdown(markdown);
  const blob = await htmlToDocx(html, 'test', {
    diagramLabel: '图表',
    drawDiagram: async (source) => {
      drawn.push(source);
      return { data: PNG, width: 1200, height: 300 };
    },
  });
  const zip = await JSZip.loadAsync(await blob.arrayBuffer());
  const xml = await zip.file('word/document.xml')!.async('string');
  return { xml, files: Object.keys(zip.files) };
}

/** The document's visible text runs (w:t), joined. */
function wordText(xml: string): string {
  return [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
}

function count(xml: string, pattern: RegExp): number {
  return xml.match(pattern)?.length ?? 0;
}

describe('Word export', () => {
  it('writes an inline formula once, as a Word equation', async () => {
    const { xml } = await documentXml('Energy: $E = mc^2$ (Einstein).');
    expect(count(xml, /<m:oMath>/g)).toBe(1);
    expect(count(xml, /<m:oMathPara>/g)).toBe(0);
    // E, =, m and c with the superscript 2: a real superscript, no TeX, no second or third copy.
    expect(xml).toMatch(
      /<m:sSup><m:e><m:r><m:t xml:space="preserve">c<\/m:t><\/m:r><\/m:e><m:sup><m:r><m:t xml:space="preserve">2<\/m:t>/,
    );
    const text = wordText(xml);
    expect(text).toBe('Energy:  (Einstein).');
    expect(xml).not.toContain('mc^2');
    expect(xml).not.toContain('E=mc2');
  });

  it('writes display math as one centred equation paragraph with fractions, sums and roots', async () => {
    const { xml } = await documentXml('$$\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2} + \\sqrt{x}\n$$');
    expect(count(xml, /<m:oMathPara>/g)).toBe(1);
    expect(count(xml, /<m:oMath>/g)).toBe(1);
    expect(count(xml, /<m:f>/g)).toBe(1);
    expect(count(xml, /<m:rad>/g)).toBe(1);
    // The sum is an n-ary operator with its limits above and below and the summand inside.
    expect(xml).toContain(
      '<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/></m:naryPr>' +
        '<m:sub><m:r><m:t xml:space="preserve">i</m:t></m:r><m:r><m:t xml:space="preserve">=</m:t></m:r>' +
        '<m:r><m:t xml:space="preserve">1</m:t></m:r></m:sub><m:sup><m:r><m:t xml:space="preserve">n</m:t></m:r></m:sup>' +
        '<m:e><m:r><m:t xml:space="preserve">i</m:t></m:r></m:e></m:nary>',
    );
    expect(xml).not.toContain('\\frac');
    expect(xml).not.toContain('\\sum');
    expect(wordText(xml)).toBe('');
  });

  it('keeps a named operator upright and text as text', async () => {
    const { xml } = await documentXml('$\\sin x + \\text{if } y$');
    expect(xml).toMatch(/<m:r><m:rPr><m:sty m:val="p"\/><\/m:rPr><m:t xml:space="preserve">sin<\/m:t><\/m:r>/);
    expect(xml).toMatch(/<m:r><m:rPr><m:nor\/><\/m:rPr><m:t xml:space="preserve">if <\/m:t><\/m:r>/);
  });

  it('writes matrices as Word matrices and accents as accents', async () => {
    const { xml } = await documentXml('$\\hat{x} + \\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}$');
    expect(count(xml, /<m:oMath>/g)).toBe(1);
    expect(xml).toContain('<m:acc><m:accPr><m:chr m:val="^"/></m:accPr><m:e><m:r><m:t xml:space="preserve">x</m:t>');
    expect(count(xml, /<m:m>/g)).toBe(1);
    expect(count(xml, /<m:mr>/g)).toBe(2);
    expect(wordText(xml)).toBe('');
  });

  it('embeds a Mermaid diagram as a picture instead of its source', async () => {
    const drawn: string[] = [];
    const { xml, files } = await documentXml('Before\n\n```mermaid\ngraph LR; Collect-->Review\n```\n\nAfter', drawn);
    expect(drawn).toEqual(['graph LR; Collect-->Review']);
    expect(count(xml, /<w:drawing>/g)).toBe(1);
    expect(files.some((name) => /^word\/media\/.+\.png$/.test(name))).toBe(true);
    expect(wordText(xml)).not.toContain('Collect');
    // Scaled to the text column: 1200×300 px → 600×150 px (EMU: 9525 per px).
    expect(xml).toContain(`cx="${600 * 9525}" cy="${150 * 9525}"`);
    expect(wordText(xml)).toBe('BeforeAfter');
    // Named in the UI's language, described by its source.
    expect(xml).toContain('<wp:docPr id="1" name="图表" descr="graph LR; Collect--&gt;Review" title="图表"/>');
  });

  it('keeps a diagram that cannot be drawn as its source code', async () => {
    const html = await renderMarkdown('```mermaid\nnot a diagram\n```');
    const blob = await htmlToDocx(html, 'test', { drawDiagram: () => Promise.reject(new Error('syntax')) });
    const zip = await JSZip.loadAsync(await blob.arrayBuffer());
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(wordText(xml)).toBe('not a diagram');
    expect(xml).not.toContain('<w:drawing>');
  });
});
