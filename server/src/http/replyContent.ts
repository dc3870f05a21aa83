import type { Context } from 'hono';
import type { ContentRequest, ContentResult } from '../services/shares/serving/fileServingService.js';
import { contentDisposition } from './contentDisposition.js';
import { replyError } from './envelope.js';
import { etagMatches, ifRangeAllows, parseRange } from './range.js';
import { fileBody } from './sendfileEdge.js';

/**
 * Answers a file's content the safe way (file shares and the fs API alike): redirect, 304, 416, HEAD or
 * the bytes with Range / ETag / Last-Modified, an RFC 5987 Content-Disposition, `nosniff`, and anything
 * that could run script in our origin (HTML, SVG, XML, unknown types) only as a sandboxed attachment.
 */
export function replyContent(c: Context, result: ContentResult): Response | Promise<Response> {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Cache-Control', 'private, no-cache');
  if (result.kind === 'redirect') {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(result.url, 302);
  }
  if (result.kind === 'not_modified') {
    c.header('ETag', result.etag);
    c.header('Last-Modified', result.lastModified.toUTCString());
    return c.body(null, 304);
  }
  if (result.kind === 'unsatisfiable') {
    c.header('Content-Range', `bytes */${result.size}`);
    return replyError(c, 'RANGE_NOT_SATISFIABLE', 'requested range not satisfiable');
  }
  const { policy, disposition } = result;
  c.header(
    'Content-Type',
    disposition === 'inline' ? policy.contentType : policy.sandbox ? 'application/octet-stream' : policy.contentType,
  );
  c.header('Content-Disposition', contentDisposition(disposition, result.filename));
  if (policy.sandbox) c.header('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'");
  c.header('ETag', result.etag);
  c.header('Last-Modified', result.lastModified.toUTCString());
  c.header('Accept-Ranges', 'bytes');
  if (result.kind === 'head') {
    const { range, size } = result;
    c.header('Content-Length', String(range ? range.end - range.start + 1 : size));
    if (range) c.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    return c.body(null, range ? 206 : 200);
  }
  const { read } = result;
  c.header('Content-Length', String(read.contentLength));
  if (read.range) {
    c.header('Content-Range', `bytes ${read.range.start}-${read.range.end}/${read.size}`);
    return fileBody(c, read.stream, 206);
  }
  return fileBody(c, read.stream, 200);
}

/** The request's If-None-Match / Range / If-Range, resolved against the file once its ETag and size are known. */
export function conditionalFrom(c: Context): ContentRequest['conditional'] {
  const rangeHeader = c.req.header('range');
  return ({ etag, lastModified, size }) => {
    const notModified = etagMatches(c.req.header('if-none-match'), etag);
    const useRange = rangeHeader !== undefined && ifRangeAllows(c.req.header('if-range'), etag, lastModified);
    return { notModified, range: useRange ? parseRange(rangeHeader, size) : undefined };
  };
}
