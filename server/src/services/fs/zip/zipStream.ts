// A zip built as it is sent: zip-stream (archiver's engine; STORE, CRC-32 and data descriptors, Zip64 as soon as
// an entry or an offset passes 4 GiB, no temp file). Every entry's size is known before the first byte goes out, so
// the archive's exact length is known too (Content-Length, progress bars): `zipLength` mirrors the layout
// compress-commons writes, and the tests hold it to the real output. Sources are opened one at a time, only when the
// archive reaches them, and read with backpressure: memory stays flat.
import type { Readable } from 'node:stream';
import ZipStream from 'zip-stream';
import { nodeFromWeb, webFromNode } from '../../../storage/streams.js';
import { useNativeCrc32 } from './nativeCrc.js';

useNativeCrc32();

/** Limits of one archive (docs/api/fs-tasks.md "Zip downloads"). */
export const ZIP_LIMITS = {
  /** Entries (files + folders) in one archive. */
  maxEntries: 50_000,
  /** UTF-8 bytes of one entry name (its path inside the archive). */
  maxNameBytes: 1024,
  /** Archive file name (Content-Disposition), in characters. */
  maxArchiveNameChars: 200,
} as const;

export interface ZipSource {
  /** Path inside the archive, already normalised by `zipEntryName` ('a/b.txt'; folders without a trailing slash). */
  name: string;
  isDir: boolean;
  /** Exact byte count of a file; the stream must carry exactly this many bytes. */
  size: number;
  lastModified?: Date;
  /** Opens the file's bytes; called once, when the archive reaches the entry. */
  open?: (signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;
}

/** Thrown into the archive stream when a source carries another byte count than announced. */
export class ZipSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipSourceError';
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what it removes
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\\:*?"<>|]/g;

/**
 * A safe path inside the archive from path segments: empty, `.` and `..` segments dropped, backslashes,
 * control characters and characters Windows refuses replaced by `_`, never absolute. Answers '' when
 * nothing is left (the caller names the entry something else).
 */
export function zipEntryName(segments: string[]): string {
  return segments
    .flatMap((segment) => segment.split('/'))
    .map((segment) => segment.replace(UNSAFE_CHARS, '_').trim())
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .join('/');
}

const ZIP64_MAGIC = 0xffffffff;
const MAX_SHORT = 0xffff;

/** The archive's byte length, exact (the layout of compress-commons' ZipArchiveOutputStream for stored streams). */
export function zipLength(entries: readonly ZipSource[]): number {
  let offset = 0;
  let central = 0;
  for (const entry of entries) {
    const name = Buffer.byteLength(entry.isDir ? `${entry.name}/` : entry.name);
    const zip64 = !entry.isDir && entry.size > ZIP64_MAGIC;
    // Central header: 46 + name, plus a 28-byte Zip64 extra when the entry or its offset needs it.
    central += 46 + name + (zip64 || offset > ZIP64_MAGIC ? 28 : 0);
    // Local header 30 + name; a file adds its bytes and a data descriptor (16, or 24 with 64-bit sizes).
    offset += 30 + name + (entry.isDir ? 0 : entry.size + (zip64 ? 24 : 16));
  }
  const zip64 = entries.length > MAX_SHORT || central > ZIP64_MAGIC || offset > ZIP64_MAGIC;
  return offset + central + (zip64 ? 56 + 20 : 0) + 22;
}

/** Passes a source through, failing when it carries more or fewer bytes than announced. */
function exactly(stream: ReadableStream<Uint8Array>, size: number, name: string): ReadableStream<Uint8Array> {
  let seen = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > size) throw new ZipSourceError(`${name} grew while it was zipped (announced ${size} bytes)`);
        controller.enqueue(chunk);
      },
      flush() {
        if (seen !== size) throw new ZipSourceError(`${name} shrank while it was zipped (${seen} of ${size} bytes)`);
      },
    }),
  );
}

/**
 * The archive as a Web stream. Cancelling it (the client went away) aborts the source being read and adds no
 * more entries; a source error errors the stream (the client sees a truncated download, never a well-formed
 * archive with wrong bytes).
 */
export function streamZip(entries: readonly ZipSource[]): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  const zip = new ZipStream({ store: true, forceLocalTime: false });
  const add = (source: Readable | null, entry: ZipSource) =>
    new Promise<void>((resolve, reject) => {
      zip.entry(
        source,
        {
          name: entry.isDir ? `${entry.name}/` : entry.name,
          type: entry.isDir ? 'directory' : 'file',
          date: entry.lastModified ?? new Date(),
          store: true,
        },
        (err) => (err ? reject(err) : resolve()),
      );
    });
  const pump = async () => {
    for (const entry of entries) {
      if (controller.signal.aborted) return;
      if (entry.isDir || !entry.open) {
        await add(null, entry);
        continue;
      }
      const source = await entry.open(controller.signal);
      await add(nodeFromWeb(exactly(source, entry.size, entry.name)), entry);
    }
    zip.finalize();
  };
  pump().catch((error: unknown) => zip.destroy(error instanceof Error ? error : new Error(String(error))));
  const out = webFromNode(zip as unknown as Readable);
  const reader = out.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(sink) {
        const { value, done } = await reader.read();
        if (done) sink.close();
        else sink.enqueue(value);
      },
      async cancel(reason) {
        controller.abort(reason);
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
