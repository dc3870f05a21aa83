import DOMPurify from 'dompurify';
import { cutDocumentXml } from './cutDocument';

/**
 * The policy of the frame a document is shown in (written into its srcdoc): nothing loads but the
 * images and fonts the document carries inline, and no script runs (the frame is sandboxed too).
 */
const FRAME_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

/** The .docx with its main part cut after `maxBlocks` blocks (see cutDocumentXml), and its blocks in all. */
async function shortenDocx(data: ArrayBuffer, maxBlocks: number): Promise<{ data: ArrayBuffer; total?: number }> {
  const { default: JSZip } = await import('jszip');
  const zip = await JSZip.loadAsync(data);
  const main = zip.file('word/document.xml');
  if (!main) return { data };
  const cut = cutDocumentXml(await main.async('string'), maxBlocks);
  if (!cut) return { data };
  // DEFLATE as the other parts are stored: jszip copies them without inflating them again.
  zip.file('word/document.xml', cut.xml);
  return { data: await zip.generateAsync({ type: 'arraybuffer', compression: 'DEFLATE' }), total: cut.total };
}

/** The document as laid out: the page, and how many of its body blocks (paragraphs, tables) it shows. */
export interface DocxPage {
  html: string;
  shown: number;
  total: number;
}

/**
 * A .docx as a standalone HTML page for a sandboxed frame: docx-preview parses it, only its first
 * `maxBlocks` body blocks are laid out (layout, not parsing, is what takes tens of seconds on a 20 MB
 * document, and images are only read for the blocks shown), in a detached element (images and fonts as
 * data: URLs, no embedded HTML chunks); DOMPurify keeps only inert markup.
 */
export async function docxToHtml(data: ArrayBuffer, maxBlocks: number): Promise<DocxPage> {
  const { parseAsync, renderDocument } = await import('docx-preview');
  const options = {
    inWrapper: true,
    breakPages: true,
    ignoreLastRenderedPageBreak: true,
    useBase64URL: true,
    renderAltChunks: false,
    renderComments: false,
    experimental: false,
  };
  const { data: shortened, total: cutTotal } = await shortenDocx(data, maxBlocks);
  const parsed = (await parseAsync(shortened, options)) as { documentPart?: { body?: { children?: unknown[] } } };
  const blocks = parsed.documentPart?.body?.children;
  const total = cutTotal ?? (Array.isArray(blocks) ? blocks.length : 0);
  if (Array.isArray(blocks) && blocks.length > maxBlocks) blocks.length = maxBlocks;
  const nodes = await renderDocument(parsed, options);
  const body = document.createElement('div');
  const styles = document.createElement('div');
  for (const node of nodes) (node.nodeName === 'STYLE' ? styles : body).appendChild(node);
  const markup = DOMPurify.sanitize(styles.innerHTML + body.innerHTML, {
    ADD_TAGS: ['style'],
    FORCE_BODY: true,
    FORBID_TAGS: ['form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
    ALLOWED_URI_REGEXP: /^(?:data:image\/|#)/i,
  });
  const html = [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">`,
    '<style>html,body{margin:0;background:#e5e7eb}',
    '.docx-wrapper{padding:16px!important;min-height:100vh;box-sizing:border-box}',
    '.docx-wrapper>section.docx{max-width:100%;box-sizing:border-box}',
    // A phone: the page's own margins (an inch or more) would leave a column a few words wide; the text reflows.
    '@media (max-width:600px){.docx-wrapper{padding:8px!important}',
    '.docx-wrapper>section.docx{width:100%!important;min-height:0!important;padding:24px 16px!important}}</style>',
    `</head><body>${markup}</body></html>`,
  ].join('');
  return { html, shown: Math.min(total, maxBlocks), total };
}
