// A zip built as it is sent (client-zip: STORE only, Zip64 as soon as an entry or offset passes 4 GiB,
// data descriptors, no temp file). Every entry's size is known before the first byte goes out, so the
// exact length of the archive is known too (Content-Length, progress bars). Sources are opened one at a
// time, only when the archive reaches them, and read with backpressure: memory stays flat.
import { makeZip, predictLength } from 'client-zip';

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

/** The archive's byte length, exact. */
export function zipLength(entries: readonly ZipSource[]): bigint {
  return predictLength(
    entries.map((entry) =>
      // A folder is given without a size: client-zip then keeps its trailing '/'.
      entry.isDir ? { name: entry.name } : { name: entry.name, size: entry.size },
    ),
  );
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
 * The archive as a Web stream. Cancelling it (the client went away) aborts `signal`-aware sources and
 * stops reading; a source error errors the stream (the client sees a truncated download, never a
 * well-formed archive with wrong bytes).
 */
export function streamZip(entries: readonly ZipSource[]): ReadableStream<Uint8Array> {
  const controller = new AbortController();
  async function* inputs() {
    for (const entry of entries) {
      if (controller.signal.aborted) return;
      if (entry.isDir || !entry.open) {
        yield { name: entry.name, lastModified: entry.lastModified ?? new Date() };
        continue;
      }
      const source = await entry.open(controller.signal);
      yield {
        name: entry.name,
        lastModified: entry.lastModified ?? new Date(),
        size: entry.size,
        input: exactly(source, entry.size, entry.name),
      };
    }
  }
  const zip = makeZip(inputs(), { buffersAreUTF8: true });
  const reader = zip.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        const { value, done } = await reader.read();
        if (done) out.close();
        else out.enqueue(value);
      },
      async cancel(reason) {
        controller.abort(reason);
        // client-zip throws the reason back into its input generator, which rethrows it: that is the stop we asked for.
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
