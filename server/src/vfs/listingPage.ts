// A folder's entries as the tree answers them: storage entries become VfsEntries only for the page asked for.
import { AppError } from '../errors.js';
import { joinVirtualPath } from '@clipnest/contract';
import { isoString } from '../lib/dateStrings.js';
import type { Entry } from '../storage/types.js';
import type { MountRecord, VfsEntry, VfsFolder, VfsListing, VfsListOptions } from './types.js';

/** Built field by field (no spread of temporary objects): a big folder turns thousands of entries. */
export function toVfsEntry(mount: MountRecord, dir: string, entry: Entry): VfsEntry {
  const out: VfsEntry = {
    name: entry.name,
    path: joinVirtualPath(dir, entry.name),
    isDir: entry.isDir,
    size: entry.size,
  };
  if (entry.lastModified) out.lastModified = isoString(entry.lastModified);
  if (entry.etag) out.etag = entry.etag;
  if (entry.contentType) out.contentType = entry.contentType;
  if (entry.linkTarget !== undefined) out.isLink = true;
  out.mountId = mount.id;
  return out;
}

/** One page of a folder (mount points first, then the storage's entries), by `cursor` or `offset` and `limit`. */
export function pageOfFolder(
  folder: VfsFolder,
  options: Pick<VfsListOptions, 'cursor' | 'offset' | 'limit'> = {},
): VfsListing {
  const { path, mount, folders, own } = folder;
  const offset = options.cursor !== undefined ? Number(options.cursor) : (options.offset ?? 0);
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw AppError.validation('cursor must be a cursor from a previous page');
  }
  const total = folders.length + own.length;
  const end = Math.min(total, offset + (options.limit ?? total));
  const page: VfsEntry[] = [];
  for (let i = offset; i < end; i++) {
    page.push(i < folders.length ? folders[i]! : toVfsEntry(mount!, path, own[i - folders.length]!));
  }
  return {
    path,
    ...(mount ? { mount } : {}),
    isVirtual: !mount,
    entries: page,
    total,
    offset,
    ...(end < total ? { cursor: String(end) } : {}),
    cached: folder.cached,
  };
}
