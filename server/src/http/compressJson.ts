import zlib from 'node:zlib';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { pickEncoding, type ContentCoding } from './encoding.js';

/** Below this an answer fits one packet either way: compressing it only costs CPU. */
export const JSON_COMPRESS_THRESHOLD = 1024;
/** Above this, the fastest brotli setting: a long list must not hold the event loop for long. */
const LARGE = 64 * 1024;

/** Fast settings: on-the-fly compression must cost less than the bytes it saves (bench/paste.bench.mjs). */
function compress(coding: ContentCoding, body: Buffer): Buffer {
  if (coding === 'gzip') return zlib.gzipSync(body, { level: body.byteLength < LARGE ? 6 : 1 });
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: body.byteLength < LARGE ? 4 : 1,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  });
}

/**
 * Sends a JSON envelope, compressed with brotli or gzip (as the client accepts) when it is
 * {@link JSON_COMPRESS_THRESHOLD} bytes or more. Built here, where the JSON text is at hand: compressing
 * an answer after the fact means reading back and rebuilding a web Response, which cost more CPU than
 * brotli itself. Only envelopes go through this, so file downloads, raw pastes and Range answers never do.
 */
export function sendJson(c: Context, value: unknown, status: ContentfulStatusCode): Response {
  const text = JSON.stringify(value);
  const headers = { 'Content-Type': 'application/json' };
  if (text.length < JSON_COMPRESS_THRESHOLD) return c.body(text, status, headers);
  const coding = pickEncoding(c.req.header('Accept-Encoding'), ['br', 'gzip']);
  c.header('Vary', 'Accept-Encoding', { append: true });
  if (!coding || c.req.method === 'HEAD') return c.body(text, status, headers);
  const body = compress(coding, Buffer.from(text));
  return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), status, {
    ...headers,
    'Content-Encoding': coding,
  });
}
