/**
 * Sanitised HTML (or plain text) → a Word document. Loaded only when the user exports: the `docx`
 * package is large. The HTML is parsed into an inert document (no scripts run, no images load).
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import type { DiagramImage } from './diagram';
import { mathmlToOmml } from './omml';

const MONO = 'Consolas';
const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
];

interface Format {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
}

function texOf(el: Element): string | null {
  const annotation = el.querySelector('annotation[encoding="application/x-tex"]');
  return annotation?.textContent ?? null;
}

/**
 * A KaTeX formula (`.katex` or `.katex-display`) as a Word equation, built from its MathML. KaTeX also draws the
 * formula in HTML (for the screen) and keeps its TeX in an annotation: only the MathML is read, once.
 */
function equation(el: Element, display: boolean): ParagraphChild {
  const math = el.querySelector('.katex-mathml math, math');
  if (math) return mathmlToOmml(math, display);
  return new TextRun({ text: texOf(el) ?? '', italics: true, font: 'Cambria Math' });
}

/** Diagram images by their `<pre class="md-mermaid">`, drawn before the document is built. */
type Diagrams = Map<Element, { image: DiagramImage; label: string; source: string }>;

/** Word's text column at the default margins is 6.5 in (624 px at 96 dpi). */
const MAX_IMAGE_WIDTH = 600;

function diagramParagraph({ image, label, source }: { image: DiagramImage; label: string; source: string }): Paragraph {
  const scale = Math.min(1, MAX_IMAGE_WIDTH / image.width);
  return new Paragraph({
    alignment: AlignmentType.CENTER,
    spacing: { after: 160 },
    children: [
      new ImageRun({
        type: 'png',
        data: image.data,
        transformation: { width: Math.round(image.width * scale), height: Math.round(image.height * scale) },
        // The diagram's source is its text alternative (what a screen reader in Word reads).
        altText: { name: label, title: label, description: source },
      }),
    ],
  });
}

/** A paragraph that holds only display formulas (how the Markdown renderer emits `$$…$$`). */
function displayMathOnly(p: Element): Element[] | null {
  const kids = [...p.children];
  if (kids.length === 0 || !kids.every((k) => k.classList.contains('katex-display'))) return null;
  const loose = [...p.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
  return loose ? null : kids;
}

function inlineRuns(node: Node, format: Format = {}): ParagraphChild[] {
  const runs: ParagraphChild[] = [];
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      const text = (child.textContent ?? '').replace(/\s+/g, ' ');
      if (text) {
        runs.push(
          new TextRun({
            text,
            bold: format.bold,
            italics: format.italics,
            strike: format.strike,
            font: format.code ? MONO : undefined,
            shading: format.code ? { type: ShadingType.CLEAR, color: 'auto', fill: 'F0F2F4' } : undefined,
          }),
        );
      }
      continue;
    }
    if (!(child instanceof Element)) continue;
    const tag = child.tagName.toLowerCase();
    if (child.classList.contains('katex') || child.classList.contains('katex-display')) {
      runs.push(equation(child, false));
      continue;
    }
    switch (tag) {
      case 'strong':
      case 'b':
        runs.push(...inlineRuns(child, { ...format, bold: true }));
        break;
      case 'em':
      case 'i':
        runs.push(...inlineRuns(child, { ...format, italics: true }));
        break;
      case 'del':
      case 's':
        runs.push(...inlineRuns(child, { ...format, strike: true }));
        break;
      case 'code':
      case 'kbd':
        runs.push(...inlineRuns(child, { ...format, code: true }));
        break;
      case 'br':
        runs.push(new TextRun({ text: '', break: 1 }));
        break;
      case 'img':
        runs.push(new TextRun({ text: `[${child.getAttribute('alt') || 'image'}]`, italics: true }));
        break;
      case 'input':
        runs.push(new TextRun({ text: child.hasAttribute('checked') ? '☑ ' : '☐ ' }));
        break;
      case 'a': {
        const href = child.getAttribute('href') ?? '';
        const inner = (child.textContent ?? '').replace(/\s+/g, ' ');
        if (/^https?:\/\//i.test(href) && inner) {
          runs.push(
            new ExternalHyperlink({ link: href, children: [new TextRun({ text: inner, style: 'Hyperlink' })] }),
          );
        } else runs.push(...inlineRuns(child, format));
        break;
      }
      default:
        runs.push(...inlineRuns(child, format));
    }
  }
  return runs;
}

function codeParagraphs(text: string): Paragraph[] {
  const lines = text.replace(/\n$/, '').split('\n');
  return lines.map(
    (line) =>
      new Paragraph({
        spacing: { before: 0, after: 0 },
        shading: { type: ShadingType.CLEAR, color: 'auto', fill: 'F3F4F6' },
        children: [new TextRun({ text: line || ' ', font: MONO, size: 19 })],
      }),
  );
}

function tableBlock(table: Element): Table {
  const rows = [...table.querySelectorAll('tr')].map(
    (tr) =>
      new TableRow({
        tableHeader: tr.parentElement?.tagName.toLowerCase() === 'thead',
        children: [...tr.children].map(
          (cell) =>
            new TableCell({
              shading:
                cell.tagName.toLowerCase() === 'th'
                  ? { type: ShadingType.CLEAR, color: 'auto', fill: 'EEF1F3' }
                  : undefined,
              children: [
                new Paragraph({
                  children: inlineRuns(cell, { bold: cell.tagName.toLowerCase() === 'th' }),
                }),
              ],
            }),
        ),
      }),
  );
  return new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } });
}

function listBlocks(list: Element, level: number): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = [];
  const ordered = list.tagName.toLowerCase() === 'ol';
  let index = Number(list.getAttribute('start') ?? '1') || 1;
  for (const item of list.children) {
    if (item.tagName.toLowerCase() !== 'li') continue;
    const inline = item.cloneNode(true) as Element;
    for (const nested of inline.querySelectorAll(':scope > ul, :scope > ol')) nested.remove();
    const prefix = ordered ? `${index}. ` : '';
    out.push(
      new Paragraph({
        bullet: ordered ? undefined : { level: Math.min(level, 8) },
        indent: ordered ? { left: 360 * (level + 1) } : undefined,
        children: [...(prefix ? [new TextRun({ text: prefix })] : []), ...inlineRuns(inline)],
      }),
    );
    index += 1;
    for (const nested of item.querySelectorAll(':scope > ul, :scope > ol')) out.push(...listBlocks(nested, level + 1));
  }
  return out;
}

function displayParagraph(el: Element): Paragraph {
  return new Paragraph({ alignment: AlignmentType.CENTER, spacing: { after: 160 }, children: [equation(el, true)] });
}

function blocks(parent: Element, diagrams: Diagrams): (Paragraph | Table)[] {
  const out: (Paragraph | Table)[] = [];
  for (const el of parent.children) {
    const tag = el.tagName.toLowerCase();
    const display = tag === 'p' ? displayMathOnly(el) : null;
    const diagram = diagrams.get(el);
    if (/^h[1-6]$/.test(tag)) {
      out.push(new Paragraph({ heading: HEADINGS[Number(tag[1]) - 1], children: inlineRuns(el) }));
    } else if (display) {
      out.push(...display.map(displayParagraph));
    } else if (tag === 'p') {
      out.push(new Paragraph({ spacing: { after: 160 }, children: inlineRuns(el) }));
    } else if (diagram) {
      out.push(diagramParagraph(diagram));
    } else if (tag === 'pre') {
      out.push(...codeParagraphs(el.textContent ?? ''), new Paragraph({ children: [] }));
    } else if (tag === 'ul' || tag === 'ol') {
      out.push(...listBlocks(el, 0));
    } else if (tag === 'table') {
      out.push(tableBlock(el), new Paragraph({ children: [] }));
    } else if (tag === 'blockquote') {
      for (const child of blocks(el, diagrams)) {
        out.push(child);
      }
      if (el.children.length === 0) out.push(new Paragraph({ children: inlineRuns(el, { italics: true }) }));
    } else if (tag === 'hr') {
      out.push(
        new Paragraph({
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'CCCCCC', space: 1 } },
          children: [],
        }),
      );
    } else if (el.classList.contains('katex-display')) {
      out.push(displayParagraph(el));
    } else if (tag === 'div' || tag === 'section' || tag === 'details' || tag === 'figure') {
      out.push(...blocks(el, diagrams));
    } else {
      const runs = inlineRuns(el);
      if (runs.length) out.push(new Paragraph({ children: runs }));
    }
  }
  return out;
}

export interface DocxOptions {
  /**
   * Draws one Mermaid diagram as a PNG (default: Mermaid, then a canvas). A diagram that cannot be drawn (a syntax
   * error, `null`) stays in the document as its source code.
   */
  drawDiagram?: (source: string) => Promise<DiagramImage | null>;
  /** The pictures' name in the document (the UI's word for "Diagram"). */
  diagramLabel?: string;
}

async function drawDiagrams(root: Element, { drawDiagram: draw, diagramLabel }: DocxOptions): Promise<Diagrams> {
  const diagrams: Diagrams = new Map();
  const pres = [...root.querySelectorAll('pre.md-mermaid')];
  if (pres.length === 0) return diagrams;
  const drawOne = draw ?? (async (source: string) => (await import('./diagram')).mermaidToPng(source));
  for (const pre of pres) {
    const source = pre.textContent ?? '';
    const image = await drawOne(source).catch(() => null);
    if (image) diagrams.set(pre, { image, source, label: diagramLabel ?? 'Diagram' });
  }
  return diagrams;
}

/** Builds a .docx Blob from sanitised HTML: formulas as Word equations, Mermaid diagrams as pictures. */
export async function htmlToDocx(html: string, title: string, options: DocxOptions = {}): Promise<Blob> {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  const children = blocks(doc.body, await drawDiagrams(doc.body, options));
  return Packer.toBlob(
    new Document({
      title,
      creator: 'Clipnest',
      styles: { default: { document: { run: { font: 'Calibri', size: 22 } } } },
      sections: [{ children: children.length ? children : [new Paragraph({ children: [] })] }],
    }),
  );
}

/** Builds a .docx Blob from plain text, one paragraph per line in a monospace font. */
export async function textToDocx(text: string, title: string): Promise<Blob> {
  return Packer.toBlob(
    new Document({
      title,
      creator: 'Clipnest',
      sections: [{ children: codeParagraphs(text) }],
    }),
  );
}
