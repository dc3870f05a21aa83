import DOMPurify from 'dompurify';

/**
 * The policy of the frame a document is shown in (written into its srcdoc): nothing loads but the
 * images and fonts the document carries inline, and no script runs (the frame is sandboxed too).
 */
const FRAME_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

/**
 * A .docx as a standalone HTML page for a sandboxed frame: docx-preview lays it out in a detached
 * element (images and fonts as data: URLs, no embedded HTML chunks), DOMPurify keeps only inert markup.
 */
export async function docxToHtml(data: ArrayBuffer): Promise<string> {
  const { renderAsync } = await import('docx-preview');
  const body = document.createElement('div');
  const styles = document.createElement('div');
  await renderAsync(data, body, styles, {
    inWrapper: true,
    breakPages: true,
    ignoreLastRenderedPageBreak: true,
    useBase64URL: true,
    renderAltChunks: false,
    renderComments: false,
    experimental: false,
  });
  const markup = DOMPurify.sanitize(styles.innerHTML + body.innerHTML, {
    ADD_TAGS: ['style'],
    FORCE_BODY: true,
    FORBID_TAGS: ['form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
    ALLOWED_URI_REGEXP: /^(?:data:image\/|#)/i,
  });
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">`,
    '<style>html,body{margin:0;background:#e5e7eb}.docx-wrapper{padding:16px!important}',
    '.docx-wrapper>section.docx{max-width:100%;box-sizing:border-box}</style>',
    `</head><body>${markup}</body></html>`,
  ].join('');
}
