import DOMPurify from 'dompurify';
import { resolvePart } from '../builtin/pptx';
import type { EpubBook } from './readEpub';

/**
 * The policy of the frame a chapter is shown in (written into its srcdoc): nothing loads but what the book
 * carries inline as data: URLs, and no script runs (the frame is sandboxed without allow-scripts too).
 */
const FRAME_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";
/** A picture or font larger than this is left out of the chapter (it would be copied into the frame). */
const MAX_INLINE_BYTES = 8 * 1024 * 1024;

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

async function dataUrl(book: EpubBook, path: string): Promise<string | null> {
  const type = TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
  const file = book.zip.file(path);
  // An SVG picture may carry script: only raster images and fonts are inlined.
  if (!type || type === 'image/svg+xml' || !file) return null;
  const base64 = await file.async('base64');
  if (base64.length * 0.75 > MAX_INLINE_BYTES) return null;
  return `data:${type};base64,${base64}`;
}

function cleanHref(href: string): string {
  const hash = href.search(/[?#]/);
  try {
    return decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
  } catch {
    return href;
  }
}

/** CSS with its url()s turned into data: URLs of the book's own files; any other url() is dropped. */
async function inlineCss(book: EpubBook, css: string, base: string): Promise<string> {
  const urls = [...css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g)];
  let out = css;
  for (const match of urls) {
    const target = match[2]!.trim();
    const inline = /^[a-z]+:/i.test(target) ? null : await dataUrl(book, resolvePart(base, cleanHref(target)));
    out = out.replace(match[0], inline ? `url("${inline}")` : 'none');
  }
  // @import would fetch: the imported sheet is not followed.
  return out.replace(/@import[^;]*;/g, '');
}

/**
 * Chapter `index` as a standalone HTML page for a sandboxed frame: its stylesheets and pictures inlined from the
 * archive, then DOMPurify keeps only inert markup (no script, no forms, no links out of the page).
 */
export async function renderChapter(book: EpubBook, index: number): Promise<string> {
  const path = book.chapters[index];
  const file = path ? book.zip.file(path) : null;
  if (!path || !file) throw new Error('missing chapter');
  const text = await file.async('string');
  let doc = new DOMParser().parseFromString(text, 'application/xhtml+xml');
  if (doc.getElementsByTagName('parsererror').length > 0) doc = new DOMParser().parseFromString(text, 'text/html');

  const styles: string[] = [];
  for (const link of Array.from(doc.getElementsByTagName('link'))) {
    const href = link.getAttribute('href');
    if (!href || !/stylesheet/i.test(link.getAttribute('rel') ?? '')) continue;
    const cssPath = resolvePart(path, cleanHref(href));
    const css = book.zip.file(cssPath);
    if (css) styles.push(await inlineCss(book, await css.async('string'), cssPath));
  }
  for (const style of Array.from(doc.getElementsByTagName('style'))) {
    styles.push(await inlineCss(book, style.textContent ?? '', path));
  }
  for (const img of Array.from(doc.getElementsByTagName('img'))) {
    const src = img.getAttribute('src');
    const inline = src && !/^[a-z]+:/i.test(src) ? await dataUrl(book, resolvePart(path, cleanHref(src))) : null;
    if (inline) img.setAttribute('src', inline);
    else img.removeAttribute('src');
  }
  for (const image of Array.from(doc.getElementsByTagName('image'))) {
    const href = image.getAttribute('href') ?? image.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
    const inline = href && !/^[a-z]+:/i.test(href) ? await dataUrl(book, resolvePart(path, cleanHref(href))) : null;
    image.removeAttributeNS('http://www.w3.org/1999/xlink', 'href');
    if (inline) image.setAttribute('href', inline);
    else image.removeAttribute('href');
  }
  const body = doc.body ?? doc.getElementsByTagName('body')[0] ?? doc.documentElement;
  const markup = DOMPurify.sanitize(body.innerHTML, {
    FORBID_TAGS: [
      'style',
      'link',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'meta',
      'base',
      'audio',
      'video',
    ],
    ALLOWED_URI_REGEXP: /^(?:data:image\/(?:png|jpeg|gif|webp|avif);|#)/i,
  });
  const css = DOMPurify.sanitize(`<style>${styles.join('\n')}</style>`, { ADD_TAGS: ['style'], FORCE_BODY: true });
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">`,
    '<style>html{background:#fff;color:#1f2937}body{margin:0 auto;max-width:42em;padding:20px 18px 48px;',
    'font:17px/1.7 Georgia,"Noto Serif","Noto Serif CJK SC","Songti SC",serif;overflow-wrap:break-word}',
    'img,svg{max-width:100%;height:auto}pre{white-space:pre-wrap}</style>',
    css,
    `</head><body>${markup}</body></html>`,
  ].join('');
}
