import zlib from 'node:zlib';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { pickEncoding, type ContentCoding } from './encoding.js';
import { requestHeader } from './requestHeader.js';

/** Below this an answer fits one packet either way: compressing it only costs CPU. */
export const JSON_COMPRESS_THRESHOLD = 1024;
/** Above this, the fastest brotli setting: a long list must not hold the event loop for long. */
const LARGE = 64 * 1024;
/**
 * Below this, brotli quality 1 too: quality 2 clears a large hash table on every call, whatever the size of the
 * answer, which on a paste view cost more than the compression itself (the other work of the request ran slower
 * after it); quality 1 sizes its table to the input and writes a few bytes more (docs/benchmarks.md, Pastes).
 */
const SMALL = 8 * 1024;

/** log2 of the smallest window that holds `size` bytes, within `[min, max]`. */
export function windowBitsFor(size: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.ceil(Math.log2(Math.max(1, size)))));
}

/** Gzip level, window and memory level for an answer of `size` bytes (see {@link compressOptions}). */
function gzipSettings(size: number): { level: number; windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(9, windowBitsFor(size, 10, 24)));
  return { level: size < LARGE ? 6 : 1, windowBits, memLevel: Math.max(1, Math.min(8, windowBits - 7)) };
}

/** Brotli quality and window for an answer of `size` bytes (see {@link compressOptions}). */
function brotliSettings(size: number): { quality: number; lgwin: number } {
  return { quality: size < SMALL || size >= LARGE ? 1 : 2, lgwin: windowBitsFor(size, 10, 24) };
}

/**
 * Settings for on-the-fly compression: they must cost less than the bytes they save (bench/paste.bench.mjs).
 * - brotli quality 2 from {@link SMALL} to {@link LARGE}: about as small as quality 4 on JSON lists, for half its
 *   CPU; quality 1 outside (see SMALL and LARGE; docs/benchmarks.md, Figures moved out of the code).
 * - Windows fitted to the body (brotli `LGWIN`, gzip `windowBits` and `memLevel`): the encoder's tables then
 *   take tens of KB instead of several MB. Large per-request allocations were most of the cost in the
 *   server: glibc (fixed thresholds, scripts/server-bundle.mjs) hands freed heap tops back to the system, and
 *   each answer then faulted its tables in again (docs/benchmarks.md, Figures moved out of the code).
 */
export function compressOptions(coding: ContentCoding, size: number): zlib.ZlibOptions | zlib.BrotliOptions {
  if (coding === 'gzip') return gzipSettings(size);
  const { quality, lgwin } = brotliSettings(size);
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_LGWIN]: lgwin,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

const JSON_CODINGS: readonly ContentCoding[] = ['br', 'gzip'];
let lastAcceptEncoding: string | undefined;
let lastCoding: ContentCoding | null = null;

/** The coding for an Accept-Encoding value: clients send the same few values, so the last one is kept. */
function jsonCoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (acceptEncoding !== lastAcceptEncoding) {
    lastCoding = pickEncoding(acceptEncoding, JSON_CODINGS);
    lastAcceptEncoding = acceptEncoding;
  }
  return lastCoding;
}

/** `body` compressed with the on-the-fly settings above, on this thread: for answers below {@link LARGE}. */
export function compress(coding: ContentCoding, body: Buffer): Buffer {
  const options = compressOptions(coding, body.byteLength);
  return coding === 'gzip' ? zlib.gzipSync(body, options) : zlib.brotliCompressSync(body, options);
}

/**
 * `body` compressed on the thread pool, as a stream of one chunk: a large answer does not hold the event loop
 * for the time of its compression. `done` gets the compressed bytes (kept answers keep them).
 */
function compressedStream(
  coding: ContentCoding,
  body: Buffer,
  done?: (packed: Uint8Array) => void,
): ReadableStream<Uint8Array> {
  const packed = new Promise<Buffer>((resolve, reject) => {
    const callback = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'gzip') zlib.gzip(body, compressOptions(coding, body.byteLength), callback);
    else zlib.brotliCompress(body, compressOptions(coding, body.byteLength), callback);
  });
  // Read only when the client reads: an answer dropped before that must not leave an unhandled rejection.
  packed.catch(() => undefined);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const result = await packed;
      const bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
      done?.(bytes);
      controller.enqueue(bytes);
      controller.close();
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
  return sendText(c, JSON.stringify(value), status);
}

/** Bodies already encoded for a kept answer, per coding ('identity' = the UTF-8 text). */
const encodedBodies = new WeakMap<object, Map<ContentCoding | 'identity', Uint8Array>>();

/**
 * A success envelope around `dataJson`, data already serialised (FsService keeps the serialised page of a
 * cached folder listing). `keep` is an object that lives exactly as long as `dataJson` stays valid: the
 * encoded (and compressed) bodies are kept with it, so repeating the same answer costs no JSON and no brotli.
 */
export function sendDataJson(
  c: Context,
  dataJson: string,
  options: { keep?: object; status?: ContentfulStatusCode; message?: string } = {},
): Response {
  const status = options.status ?? 200;
  const text = () =>
    `{"code":${status},"message":${JSON.stringify(options.message ?? 'success')},"data":${dataJson},"success":${status < 400}}`;
  if (!options.keep) return sendText(c, text(), status);
  let bodies = encodedBodies.get(options.keep);
  if (!bodies) encodedBodies.set(options.keep, (bodies = new Map()));
  return sendText(c, text, status, bodies);
}

function sendText(
  c: Context,
  text: string | (() => string),
  status: ContentfulStatusCode,
  bodies?: Map<ContentCoding | 'identity', Uint8Array>,
): Response {
  const headers = { 'Content-Type': 'application/json' };
  const plain = (): Uint8Array => {
    const hit = bodies?.get('identity');
    if (hit) return hit;
    const bytes = Buffer.from(typeof text === 'string' ? text : text());
    bodies?.set('identity', bytes);
    return bytes;
  };
  if (!bodies) {
    const value = text as string;
    if (value.length < JSON_COMPRESS_THRESHOLD) return c.body(value, status, headers);
  } else if (plain().byteLength < JSON_COMPRESS_THRESHOLD) {
    return c.body(plain() as Uint8Array<ArrayBuffer>, status, headers);
  }
  const coding = jsonCoding(requestHeader(c, 'accept-encoding'));
  c.header('Vary', 'Accept-Encoding', { append: true });
  if (!coding || c.req.method === 'HEAD') {
    return bodies
      ? c.body(plain() as Uint8Array<ArrayBuffer>, status, headers)
      : c.body(text as string, status, headers);
  }
  const compressedHeaders = { ...headers, 'Content-Encoding': coding };
  const kept = bodies?.get(coding);
  if (kept) return c.body(kept as Uint8Array<ArrayBuffer>, status, compressedHeaders);
  const bytes = plain();
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (body.byteLength >= LARGE) {
    return c.body(
      compressedStream(coding, body, (packed) => bodies?.set(coding, packed)),
      status,
      compressedHeaders,
    );
  }
  const packed = compress(coding, body);
  const compressed = new Uint8Array(packed.buffer as ArrayBuffer, packed.byteOffset, packed.byteLength);
  bodies?.set(coding, compressed);
  return c.body(compressed, status, compressedHeaders);
}
