import { PassThrough, type Readable } from 'node:stream';
import { ARCHIVE_LIMITS, type ArchiveEntry, type ArchiveListing } from '@clipnest/contract';
import yauzl from 'yauzl';
import { AppError } from '../../../errors.js';
import { isUnsafeEntryName } from './entryNames.js';
import { WindowedReader, type RangeSource } from './rangeSource.js';

/** yauzl's reads, answered through a WindowedReader (the central directory costs a few round trips, not one per entry). */
class SourceReader extends yauzl.RandomAccessReader {
  constructor(private readonly windowed: WindowedReader) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    this.windowed.stream(start, end).then(
      (stream) => stream.on('error', (error) => out.destroy(error)).pipe(out),
      (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return out;
  }
}

function openZip(source: RangeSource, signal?: AbortSignal): Promise<yauzl.ZipFile> {
  const reader = new SourceReader(new WindowedReader(source, signal));
  // Names are decoded here, not by yauzl: it refuses a whole archive over one `..` name; we list it as unsafe.
  const options = { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true };
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(reader, source.size, options, (error, zip) =>
      error ? reject(notAZip(error)) : resolve(zip),
    ),
  );
}

function notAZip(error: unknown): AppError {
  const why = error instanceof Error ? error.message : String(error);
  return AppError.validation(`not a readable zip archive: ${why}`, [{ path: 'path', message: 'not a zip archive' }]);
}

function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
}

function describe(entry: yauzl.Entry): ArchiveEntry {
  const name = entryName(entry);
  let modified: string | null;
  try {
    modified = entry.getLastModDate().toISOString();
  } catch {
    modified = null;
  }
  return {
    name,
    directory: name.endsWith('/'),
    size: entry.uncompressedSize,
    compressed_size: entry.compressedSize,
    modified,
    unsafe: isUnsafeEntryName(name),
    encrypted: entry.isEncrypted(),
  };
}

/** Walks the central directory until `visit` returns false or it ends. */
async function walk(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => boolean): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => (visit(entry) ? zip.readEntry() : resolve()));
    zip.on('end', () => resolve());
    zip.on('error', (error: unknown) => reject(notAZip(error)));
    zip.readEntry();
  });
}

/** The listing from the central directory only: no entry is read or expanded. */
export async function listZip(source: RangeSource, signal?: AbortSignal): Promise<ArchiveListing> {
  const zip = await openZip(source, signal);
  try {
    const entries: ArchiveEntry[] = [];
    await walk(zip, (entry) => {
      entries.push(describe(entry));
      return entries.length < ARCHIVE_LIMITS.maxListedEntries;
    });
    return { format: 'zip', entries, total_entries: zip.entryCount, truncated: entries.length < zip.entryCount };
  } finally {
    zip.close();
  }
}

/** One entry's expanded bytes, streamed; never more than the size its directory record declares. */
export async function openZipEntry(
  source: RangeSource,
  name: string,
  signal?: AbortSignal,
): Promise<{ entry: ArchiveEntry; stream: Readable }> {
  const zip = await openZip(source, signal);
  let found: yauzl.Entry | undefined;
  try {
    await walk(zip, (entry) => {
      if (entryName(entry) === name) found = entry;
      return found === undefined;
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  if (!found) {
    zip.close();
    throw AppError.notFound(`no entry ${JSON.stringify(name)} in this archive`);
  }
  const entry = describe(found);
  const refuse = (message: string) => {
    zip.close();
    return AppError.validation(message, [{ path: 'entry', message }]);
  };
  if (entry.directory) throw refuse('the entry is a folder');
  if (entry.encrypted) throw refuse('the entry is encrypted');
  if (!found.canDecodeFileData()) throw refuse('the entry uses a compression method that cannot be read');
  if (entry.size > ARCHIVE_LIMITS.maxEntryBytes) {
    throw refuse(`the entry expands to ${entry.size} bytes, more than ${ARCHIVE_LIMITS.maxEntryBytes}`);
  }
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(found!, (error, opened) => (error ? reject(notAZip(error)) : resolve(opened))),
  );
  stream.once('close', () => zip.close());
  return { entry, stream };
}
