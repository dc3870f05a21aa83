import mime from 'mime';
import { isMarkdownFilename } from '@clipnest/contract';

/**
 * What may be rendered inline from our own origin. Anything that can run script (HTML, SVG, XML,
 * unknown types) is only ever sent as an attachment under `Content-Security-Policy: sandbox`.
 */
const INLINE_IMAGE = new Set([
  'image/png',
  'image/jpeg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
  'image/apng',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/tiff',
]);

/** Text types shown as text/plain (never rendered): source code, Markdown, JSON, CSV, logs. */
const TEXT_AS_PLAIN =
  /^(text\/(plain|markdown|x-markdown|csv|tab-separated-values|x-[a-z0-9.+-]+|css|javascript)|application\/(json|x-ndjson|javascript|x-sh|x-yaml|yaml|toml|sql|x-sql))$/;

export interface ServingPolicy {
  /** May be shown inline from our origin. */
  inline: boolean;
  /** Content-Type to answer with. */
  contentType: string;
  /** Add `Content-Security-Policy: sandbox`. */
  sandbox: boolean;
}

/** An ETag without quotes or the weak prefix, for comparing ETags written by different layers. */
export function unquoteEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

export function baseMimetype(mimetype: string): string {
  return (mimetype.split(';')[0] ?? '').trim().toLowerCase();
}

export function servingPolicy(mimetype: string): ServingPolicy {
  const mt = baseMimetype(mimetype);
  if (INLINE_IMAGE.has(mt)) return { inline: true, contentType: mt, sandbox: false };
  if (/^(audio|video)\/[a-z0-9.+-]+$/.test(mt)) return { inline: true, contentType: mt, sandbox: false };
  if (mt === 'application/pdf') return { inline: true, contentType: mt, sandbox: false };
  if (TEXT_AS_PLAIN.test(mt)) return { inline: true, contentType: 'text/plain; charset=utf-8', sandbox: true };
  // text/html, image/svg+xml, */xml, application/octet-stream, anything unknown.
  return {
    inline: false,
    contentType: /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(mt) ? mt : 'application/octet-stream',
    sandbox: true,
  };
}

/**
 * Types a browser may run script from when it opens them from our origin: HTML, XHTML, SVG, any XML (XSLT,
 * XHTML namespaces), JavaScript and its kin, and the archive formats a browser renders as pages (MHTML).
 */
const SCRIPT_CAPABLE =
  /^(text\/(html|xml|xsl|javascript|ecmascript|jscript|livescript|vbscript|x-javascript|x-ecmascript)|application\/(xml|xhtml\+xml|javascript|x-javascript|ecmascript|x-ecmascript|x-shockwave-flash|x-mimearchive|vnd\.ms-htmlhelp)|image\/svg\+xml|message\/rfc822|multipart\/(related|x-mixed-replace))$|[+/]xml$/;

/** true when a browser could run script from this type (or the type is not a well-formed `type/subtype`). */
export function canRunScript(mimetype: string): boolean {
  const mt = baseMimetype(mimetype);
  return !/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(mt) || SCRIPT_CAPABLE.test(mt);
}

/**
 * The policy of a file read by a client that keeps files rather than rendering pages (WebDAV): a file keeps its
 * own type (the one PROPFIND names: `.txt`, `.md`, `.json`, `.docx` …) under `nosniff`; only a type that could
 * run script in our origin (`canRunScript`) or says nothing (octet-stream) is sent as a sandboxed attachment.
 */
export function ownTypePolicy(mimetype: string): ServingPolicy {
  const mt = baseMimetype(mimetype);
  if (canRunScript(mt) || mt === 'application/octet-stream') {
    return { inline: false, contentType: 'application/octet-stream', sandbox: true };
  }
  const shown = servingPolicy(mt);
  return { inline: true, contentType: mt, sandbox: shown.sandbox };
}

/** A mimetype as a client sent it, reduced to `type/subtype` (parameters dropped), or octet-stream. */
export function cleanMimetype(value: string | undefined): string {
  const mt = baseMimetype(value ?? '');
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(mt) && mt.length <= 255
    ? mt
    : 'application/octet-stream';
}

/** Types that say nothing about the bytes: the file's name decides instead. */
const GENERIC_TYPES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/x-octet-stream',
  'application/binary',
  'application/unknown',
  'application/x-unknown',
]);

/**
 * A share's type: Markdown extensions are text/markdown (spec §5); else the type the client declared
 * (a form field) or sent (the part's or body's Content-Type); when both are missing or generic, the type
 * the file's extension names. Nothing is sniffed from the bytes, so a file never becomes HTML by content;
 * what may render inline is decided by `servingPolicy` from the type alone.
 */
export function shareMimetype(filename: string, declared: string | undefined, sent: string | undefined): string {
  if (isMarkdownFilename(filename)) return 'text/markdown';
  for (const candidate of [declared, sent]) {
    const mt = cleanMimetype(candidate);
    if (!GENERIC_TYPES.has(mt)) return mt;
  }
  return cleanMimetype(mime.getType(filename) ?? undefined);
}
