import { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ARCHIVE_LIMITS, type ArchiveEntry, type ArchiveListing } from '@clipnest/contract';
import tar from 'tar-stream';
import { AppError } from '../../../errors.js';
import { nodeFromWeb } from '../../../storage/streams.js';
import { isUnsafeEntryName } from './entryNames.js';
import type { RangeSource } from './rangeSource.js';

function notATar(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const why = error instanceof Error ? error.message : String(error);
  return AppError.validation(`not a readable tar archive: ${why}`, [{ path: 'path', message: 'not a tar archive' }]);
}

function describe(header: tar.Header): ArchiveEntry {
  const directory = header.type === 'directory';
  const name = directory && !header.name.endsWith('/') ? `${header.name}/` : header.name;
  return {
    name,
    directory,
    size: header.size ?? 0,
    compressed_size: null,
    modified: header.mtime ? header.mtime.toISOString() : null,
    unsafe: isUnsafeEntryName(name),
    encrypted: false,
  };
}

/**
 * The archive read from its start (a tar has no index), at most `maxTarScanBytes` of it, stored and (.tar.gz)
 * expanded: a small .tar.gz may expand without end. `cut()` says whether that bound ended the read.
 */
async function openExtract(source: RangeSource, gzip: boolean, signal?: AbortSignal) {
  const limit = ARCHIVE_LIMITS.maxTarScanBytes;
  let expanded = 0;
  let cut = source.size > limit;
  const stored = nodeFromWeb(await source.read(0, Math.min(source.size, limit), signal));
  const input = gzip ? stored.pipe(createGunzip()) : stored;
  const limited = input.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        expanded += chunk.length;
        if (expanded <= limit) return done(null, chunk);
        cut = true;
        done(new Error(`read ${limit} bytes of the archive`));
      },
    }),
  );
  const extract = tar.extract();
  for (const stream of [stored, input, limited]) stream.on('error', (error) => extract.destroy(error));
  limited.pipe(extract as unknown as NodeJS.WritableStream);
  const stop = () => {
    stored.destroy();
    limited.destroy();
    extract.destroy();
  };
  return { extract, stop, cut: () => cut };
}

export async function listTar(source: RangeSource, gzip: boolean, signal?: AbortSignal): Promise<ArchiveListing> {
  const format = gzip ? 'tar.gz' : 'tar';
  const { extract, stop, cut } = await openExtract(source, gzip, signal);
  const entries: ArchiveEntry[] = [];
  try {
    for await (const entry of extract) {
      entries.push(describe(entry.header));
      if (entries.length >= ARCHIVE_LIMITS.maxListedEntries) {
        return { format, entries, total_entries: entries.length, truncated: true };
      }
      entry.resume();
    }
    return { format, entries, total_entries: entries.length, truncated: cut() };
  } catch (error) {
    // The read bound ended it mid-entry: what was read is the (truncated) listing.
    if (cut() && entries.length > 0) return { format, entries, total_entries: entries.length, truncated: true };
    throw notATar(error);
  } finally {
    stop();
  }
}

/** One entry's bytes, streamed out of the archive as it is read; the rest is not read. */
export async function openTarEntry(
  source: RangeSource,
  gzip: boolean,
  name: string,
  signal?: AbortSignal,
): Promise<{ entry: ArchiveEntry; stream: Readable }> {
  const { extract, stop } = await openExtract(source, gzip, signal);
  const entries = extract[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await entries.next();
      if (next.done) break;
      const entry = describe(next.value.header);
      if (entry.name !== name || entry.directory) {
        next.value.resume();
        continue;
      }
      if (entry.size > ARCHIVE_LIMITS.maxEntryBytes) {
        const message = `the entry is ${entry.size} bytes, more than ${ARCHIVE_LIMITS.maxEntryBytes}`;
        throw AppError.validation(message, [{ path: 'entry', message }]);
      }
      const stream = Readable.from(next.value);
      stream.once('close', stop);
      return { entry, stream };
    }
  } catch (error) {
    stop();
    throw notATar(error);
  }
  stop();
  throw AppError.notFound(`no entry ${JSON.stringify(name)} in the part of this archive that is read`);
}
