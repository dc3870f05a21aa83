import { archiveFormatOf, type ArchiveEntry, type ArchiveListing, type ArchiveFormat } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { webFromNode } from '../../../storage/streams.js';
import type { Vfs } from '../../../vfs/vfs.js';
import { mimetypeOf } from '../fsService.js';
import type { Principal } from '../../../auth/principal.js';
import type { RangeSource } from './rangeSource.js';
import { listTar, openTarEntry } from './tarArchive.js';
import { listZip, openZipEntry } from './zipArchive.js';

export interface ArchiveEntryContent {
  entry: ArchiveEntry;
  stream: ReadableStream<Uint8Array>;
  /** The entry's base name (what a download saves it as). */
  filename: string;
  mimetype: string;
}

/** Archives in the tree (MOUNT_VIEW): listed without unpacking, single entries streamed out of them. */
export class ArchiveService {
  constructor(private readonly deps: { vfs: Vfs }) {}

  private async open(principal: Principal, path: string): Promise<{ format: ArchiveFormat; source: RangeSource }> {
    const { vfs } = this.deps;
    const file = await vfs.stat(principal, path);
    if (file.isDir)
      throw AppError.validation('path is a folder, not an archive', [{ path: 'path', message: 'a folder' }]);
    const format = archiveFormatOf(file.name);
    if (!format) {
      throw AppError.validation('not an archive this server reads (.zip, .tar, .tar.gz, .tgz)', [
        { path: 'path', message: 'not an archive' },
      ]);
    }
    const source: RangeSource = {
      size: file.size,
      read: async (start, end, signal) =>
        (await vfs.read(principal, file.path, { range: { start, end: end - 1 }, ...(signal ? { signal } : {}) })).result
          .stream,
    };
    return { format, source };
  }

  async list(principal: Principal, path: string, signal?: AbortSignal): Promise<ArchiveListing> {
    const { format, source } = await this.open(principal, path);
    return listArchive(format, source, signal);
  }

  async entry(principal: Principal, path: string, name: string, signal?: AbortSignal): Promise<ArchiveEntryContent> {
    const { format, source } = await this.open(principal, path);
    return openArchiveEntry(format, source, name, signal);
  }
}

/** The listing of an archive read by ranges (a tree file, a share's stored object). */
export async function listArchive(
  format: ArchiveFormat,
  source: RangeSource,
  signal?: AbortSignal,
): Promise<ArchiveListing> {
  if (source.size === 0) return { format, entries: [], total_entries: 0, truncated: false };
  return format === 'zip' ? listZip(source, signal) : listTar(source, format === 'tar.gz', signal);
}

/** One entry of an archive read by ranges, streamed out (zip-slip names are looked up, never resolved). */
export async function openArchiveEntry(
  format: ArchiveFormat,
  source: RangeSource,
  name: string,
  signal?: AbortSignal,
): Promise<ArchiveEntryContent> {
  if (source.size === 0) throw AppError.notFound(`no entry ${JSON.stringify(name)} in this archive`);
  const opened =
    format === 'zip'
      ? await openZipEntry(source, name, signal)
      : await openTarEntry(source, format === 'tar.gz', name, signal);
  const filename = name.split('/').filter(Boolean).pop() ?? 'entry';
  return { entry: opened.entry, stream: webFromNode(opened.stream), filename, mimetype: mimetypeOf(filename) };
}
