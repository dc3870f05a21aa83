// Stream plumbing shared by the drivers: Node ↔ Web streams with backpressure, byte metering, ranges.
import { YoungGarbage } from './youngGarbage.js';
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { StorageError, type ByteRange, type WriteBody } from './types.js';

/**
 * A Web ReadableStream over a Node readable with bounded read-ahead (1 MiB by default): the source is
 * read only while the queue is below that, so a slow consumer holds the source back. Cancelling
 * destroys the source. The chunks it passes on are collected young (YoungGarbage): a download from a remote
 * storage moves a fresh buffer per packet, which otherwise piled up as RSS.
 */
export function webFromNode(
  readable: Readable,
  mapError: (err: unknown) => unknown = (e) => e,
  readAhead = 1024 * 1024,
): ReadableStream<Uint8Array> {
  const iterator = readable[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  const garbage = new YoungGarbage();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await iterator.next();
          if (done) {
            controller.close();
            return;
          }
          const chunk =
            value instanceof Uint8Array ? value : typeof value === 'string' ? Buffer.from(value) : Buffer.from([]);
          garbage.add(chunk.byteLength);
          controller.enqueue(chunk);
        } catch (err) {
          controller.error(mapError(err));
        }
      },
      cancel(reason) {
        readable.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: readAhead, size: (chunk) => chunk.byteLength },
  );
}

/** A Node readable over a Web stream (cancels the Web stream when destroyed). */
export function nodeFromWeb(stream: ReadableStream<Uint8Array>): Readable {
  const readable = Readable.fromWeb(stream as unknown as NodeWebReadableStream<Uint8Array>);
  // A source that errors before a pipeline is attached must not become an uncaught exception; the
  // pipeline still sees the error (it checks `errored` when it attaches).
  readable.on('error', () => undefined);
  return readable;
}

/** A Node readable over a write body: a Node readable as it is, a Web stream converted. */
export function nodeFromBody(body: WriteBody): Readable {
  return body instanceof Readable ? body : nodeFromWeb(body);
}

/** Pulls chunks of a write body one at a time, whichever kind it is. */
export interface ChunkReader {
  read(): ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>;
  /** Stops the source (a Web stream is cancelled, a Node readable destroyed). */
  cancel(reason?: unknown): Promise<void>;
}

export function chunkReader(body: WriteBody): ChunkReader {
  if (!(body instanceof Readable)) return body.getReader();
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  return {
    async read() {
      const { value, done } = await iterator.next();
      if (done) return { done: true, value: undefined };
      return { done: false, value: value instanceof Uint8Array ? value : Buffer.from(String(value)) };
    },
    async cancel(reason) {
      // The caller already has the reason; with no listener (nothing read yet) the 'error' would be uncaught.
      body.on('error', () => undefined);
      body.destroy(reason instanceof Error ? reason : undefined);
    },
  };
}

/**
 * Keeps bytes [skip, skip + length) of a Node readable: for backends that answer a range request with
 * more than was asked (s3rver answers `bytes=0-0` with the whole object; some ignore Range entirely).
 */
export function sliceNode(source: Readable, skip: number, length: number): Readable {
  let position = 0;
  async function* sliced(): AsyncGenerator<Buffer> {
    const end = skip + length;
    for await (const raw of source) {
      const chunk = raw as Buffer;
      const from = Math.max(0, skip - position);
      const to = Math.min(chunk.length, end - position);
      position += chunk.length;
      if (to > from) yield chunk.subarray(from, to);
      if (position >= end) break;
    }
    source.destroy();
  }
  return Readable.from(sliced(), { objectMode: false });
}

/**
 * Counts bytes flowing through and fails as soon as `maxBytes` is passed ('too_large') or the count
 * disagrees with `size` ('size_mismatch': more bytes at once, fewer at the end of the stream).
 */
export class ByteMeter extends Transform {
  bytes = 0;
  private readonly garbage = new YoungGarbage();
  private readonly size?: number;
  private readonly maxBytes?: number;
  private readonly path?: string;

  constructor(opts: { size?: number; maxBytes?: number; path?: string }) {
    super();
    this.size = opts.size;
    this.maxBytes = opts.maxBytes;
    this.path = opts.path;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.garbage.add(chunk.length);
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes) {
      callback(new StorageError('too_large', `more than ${this.maxBytes} bytes`, { path: this.path }));
      return;
    }
    if (this.size !== undefined && this.bytes > this.size) {
      callback(new StorageError('size_mismatch', `more than the announced ${this.size} bytes`, { path: this.path }));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.size !== undefined && this.bytes !== this.size) {
      callback(
        new StorageError('size_mismatch', `got ${this.bytes} bytes, announced ${this.size}`, { path: this.path }),
      );
      return;
    }
    callback();
  }
}

/** What became of an upload that read a metered body: its value or failure, and the body's own error. */
export type MeteredUpload<T> =
  { ok: true; value: T; bodyError?: unknown } | { ok: false; error: unknown; bodyError?: unknown };

/**
 * Pipes `source` through `meter` into `send` (an upload reading the meter) as one step. The body's own error (a
 * limit passed, a short body) may reach us after the upload's failure it caused (the order differs between Node
 * versions): a failed upload waits up to `waitMs` for the pipeline before answering, so the caller can report
 * the body's error first; a finished one waits likewise so a body error is never missed.
 */
export async function sendMetered<T>(
  source: Readable,
  meter: ByteMeter,
  send: (body: ByteMeter) => Promise<T>,
  waitMs = 1000,
): Promise<MeteredUpload<T>> {
  let bodyError: unknown;
  let settled!: () => void;
  const piped = new Promise<void>((resolve) => (settled = resolve));
  pipeline(source, meter, (err) => {
    if (err) bodyError = err;
    settled();
  });
  const bodySettled = () => Promise.race([piped, new Promise<void>((resolve) => setTimeout(resolve, waitMs).unref())]);
  try {
    const value = await send(meter);
    await bodySettled();
    return { ok: true, value, bodyError };
  } catch (error) {
    if (!bodyError) await bodySettled();
    return { ok: false, error, bodyError };
  }
}

/** Resolves an HTTP-style range against an object size; both ends inclusive. */
export function resolveRange(range: ByteRange, size: number, path?: string): { start: number; end: number } {
  const bad = (why: string) => new StorageError('range', `range not satisfiable: ${why}`, { path });
  if (size === 0) throw bad('empty file');
  if ('suffix' in range) {
    if (!Number.isSafeInteger(range.suffix) || range.suffix <= 0) throw bad('suffix must be a positive integer');
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw bad('start must be a non-negative integer');
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) throw bad('end before start');
  if (start >= size) throw bad(`start ${start} at or past the end (${size} bytes)`);
  return { start, end: Math.min(end ?? size - 1, size - 1) };
}

/** true for the errors an AbortSignal produces in Node streams and fetch-like APIs. */
export function isAbortError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR';
}
