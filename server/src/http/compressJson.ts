import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { pickEncoding, varyOnAcceptEncoding, type ContentCoding } from './encoding.js';

/** Below this an answer fits one packet either way: compressing it only costs CPU. */
export const JSON_COMPRESS_THRESHOLD = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this an answer is compressed on the request's own thread: handing it to the thread pool costs more. */
const SYNC_BELOW = 64 * 1024;

/** Fast settings: on-the-fly compression must cost less than the bytes it saves (bench/paste.bench.mjs). */
function compress(coding: ContentCoding, body: Uint8Array): Buffer | Promise<Buffer> {
  const sync = body.byteLength < SYNC_BELOW;
  if (coding === 'gzip') return sync ? zlib.gzipSync(body, { level: 6 }) : gzip(body, { level: 6 });
  const options = {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  };
  return sync ? zlib.brotliCompressSync(body, options) : brotli(body, options);
}

/**
 * Whether an answer is one of our JSON envelopes (`c.json`): file downloads carry
 * `Content-Disposition`, Range answers are 206 with `Content-Range`, and anything already encoded
 * is left alone, so only the API's own JSON is ever buffered here.
 */
export function isCompressibleJson(res: Response): boolean {
  const type = res.headers.get('Content-Type') ?? '';
  return (
    /^application\/json\b/i.test(type) &&
    res.status !== 206 &&
    res.status !== 204 &&
    res.status !== 304 &&
    !res.headers.has('Content-Disposition') &&
    !res.headers.has('Content-Range') &&
    !res.headers.has('Content-Encoding') &&
    !/(^|,)\s*no-transform\s*(,|$)/i.test(res.headers.get('Cache-Control') ?? '')
  );
}

/** Compresses JSON envelopes above {@link JSON_COMPRESS_THRESHOLD} with brotli or gzip, as the client accepts. */
export function compressJson(threshold = JSON_COMPRESS_THRESHOLD): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // API answers are `no-store`, so a client that takes no coding simply gets the plain body, untouched
    // (reading or rebuilding an answer costs more than a small request: only done when it will be compressed).
    const coding = pickEncoding(c.req.header('Accept-Encoding'), ['br', 'gzip']);
    const res = c.res;
    if (!coding || c.req.method === 'HEAD' || !isCompressibleJson(res)) return;
    if (Number(res.headers.get('Content-Length') ?? Infinity) < threshold) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    varyOnAcceptEncoding(headers);
    let sent: Uint8Array = body;
    if (body.byteLength >= threshold) {
      sent = new Uint8Array(await compress(coding, body));
      headers.set('Content-Encoding', coding);
      headers.set('Content-Length', String(sent.byteLength));
    }
    // Replaced, not merged: the old answer's headers are already copied.
    c.res = undefined;
    c.res = new Response(sent, { status: res.status, statusText: res.statusText, headers });
  };
}
