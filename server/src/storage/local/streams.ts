// Bytes in and out of the local driver's files: a pull-based read stream over an open file (claimable for
// sendfile) and writev of a batch.
import type fs from 'node:fs/promises';
import { registerFileBody } from '../fileBody.js';
import { StorageError } from '../types.js';
import { mapFsError } from './errors.js';

export const READ_CHUNK = 1024 * 1024;
/** Bytes gathered before one writev. */
export const WRITE_BATCH = 1024 * 1024;
/**
 * With fsync on, a flush of what is written so far starts after every this many bytes (one at a time,
 * while the body keeps streaming), so the final fsync only waits for the tail. A single fsync at the end
 * of a 1 GB file would first wait for the whole file to reach the disk.
 */
export const FLUSH_EVERY = 32 * 1024 * 1024;

/** writev of all chunks, finishing short writes. */
export async function writeAll(fh: fs.FileHandle, chunks: Uint8Array[]): Promise<void> {
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const { bytesWritten } = await fh.writev(chunks);
  if (bytesWritten < total) {
    let rest = Buffer.concat(chunks).subarray(bytesWritten);
    while (rest.length > 0) {
      const r = await fh.write(rest);
      rest = rest.subarray(r.bytesWritten);
    }
  }
}

/**
 * A pull-based Web stream over [start, start+length) of an open file; closes the handle at the end.
 * Nothing is read before the first read: the next chunk is read ahead while the consumer takes the
 * last one. Until then the stream can be claimed by the HTTP edge for sendfile (fileBody.ts).
 */
export function fileStream(
  fh: fs.FileHandle,
  start: number,
  length: number,
  path: string,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  let position = start;
  let remaining = length;
  let closed = false;
  let touched = false;
  let handedOver = false;
  let ahead: Promise<Buffer> | undefined;
  const close = async () => {
    if (closed) return;
    closed = true;
    await fh.close().catch(() => undefined); // waits for a read still in flight
  };
  const readNext = (): Promise<Buffer> => {
    const want = Math.min(READ_CHUNK, remaining);
    const at = position;
    position += want;
    remaining -= want;
    const chunk = (async () => {
      const buffer = Buffer.allocUnsafe(want);
      for (let filled = 0; filled < want;) {
        const { bytesRead } = await fh.read(buffer, filled, want - filled, at + filled);
        if (bytesRead === 0) throw new StorageError('io', 'file shrank while being read', { path });
        filled += bytesRead;
      }
      return buffer;
    })();
    chunk.catch(() => undefined); // awaited by the next pull, or dropped when the stream is cancelled
    return chunk;
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
          if (handedOver) throw new StorageError('io', 'the file was handed to sendfile', { path });
          touched = true;
          if (ahead === undefined && remaining <= 0) {
            await close();
            controller.close();
            return;
          }
          const chunk = await (ahead ?? readNext());
          ahead = remaining > 0 ? readNext() : undefined;
          controller.enqueue(chunk);
          if (ahead === undefined) {
            await close();
            controller.close();
          }
        } catch (err) {
          await close();
          controller.error(mapFsError(err, path));
        }
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
  registerFileBody(stream, {
    start,
    length,
    claim: () => {
      if (touched || closed) return undefined;
      handedOver = true;
      return fh.fd;
    },
  });
  return stream;
}
