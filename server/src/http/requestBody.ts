import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import type { Context } from 'hono';

/**
 * The request body as a Node stream, or null when there is none. On @hono/node-server the socket's own
 * IncomingMessage is used: touching `c.req.raw.body` would build a full Web Request and a Web stream
 * around it first, which costs more than a small request's whole handling.
 */
export function nodeRequestBody(c: Context): Readable | null {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof Readable && !incoming.readableDidRead) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as unknown as NodeWebReadableStream<Uint8Array>) : null;
}

/**
 * Collects a body of at most `maxBytes`; above that it calls `tooLarge` for the error to reject with and
 * discards the rest, so the client still reads the answer.
 */
export function readLimited(stream: Readable, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        stream.on('error', () => undefined);
        stream.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/** The request body as a Web stream; an empty stream when the request has none (a 0-byte part). */
export function webRequestBody(c: Context): ReadableStream<Uint8Array> {
  return (
    c.req.raw.body ??
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.close();
      },
    })
  );
}
