// Listing of the S3 driver: one page of a directory (a key prefix, Delimiter '/') and the entries keys map to.
import {
  ListObjectsV2Command,
  type HeadObjectCommandOutput,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { baseName, normalizePath } from '../paths.js';
import { StorageError, type Entry, type ListPage, type ListResult } from '../types.js';
import type { S3Driver } from './driver.js';
import { MAX_LIST, quoteEtag } from './shared.js';

/** The driver path of a key below `prefix` (the driver prefix), or null when our paths cannot address it. */
export function pathOfKey(prefix: string, key: string): string | null {
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length).replace(/\/$/, '');
  try {
    return normalizePath(rest) === rest ? rest : null; // keys our paths cannot address are not listed
  } catch {
    return null;
  }
}

export function fileEntry(
  path: string,
  head: Pick<HeadObjectCommandOutput, 'ContentLength' | 'LastModified' | 'ETag' | 'ContentType'>,
): Entry {
  return {
    path,
    name: baseName(path),
    isDir: false,
    size: head.ContentLength ?? 0,
    ...(head.LastModified ? { lastModified: head.LastModified } : {}),
    ...(head.ETag ? { etag: quoteEtag(head.ETag) } : {}),
    ...(head.ContentType ? { contentType: head.ContentType } : {}),
  };
}

export function dirEntry(path: string): Entry {
  return { path, name: baseName(path), isDir: true, size: 0 };
}

/**
 * One page of a directory. The cursor is our own (the last key of the page, for StartAfter) rather
 * than the backend's continuation token, so a page is never longer than `limit` even on backends
 * that count only objects, not common prefixes, against MaxKeys (s3rver).
 */
export async function listDir(d: S3Driver, dir: string, page: ListPage = {}): Promise<ListResult> {
  const prefix = d.dirKey(dir);
  const limit = Math.max(1, Math.min(page.limit ?? MAX_LIST, MAX_LIST));
  let startAfter: string | undefined;
  if (page.cursor) {
    startAfter = Buffer.from(page.cursor, 'base64url').toString('utf8');
    if (!startAfter.startsWith(prefix)) throw new StorageError('invalid_path', 'bad list cursor', { path: dir });
  }
  const out = await d.send<ListObjectsV2CommandOutput>(
    new ListObjectsV2Command({
      Bucket: d.bucket,
      Prefix: prefix,
      Delimiter: '/',
      MaxKeys: limit,
      ...(startAfter ? { StartAfter: startAfter } : {}),
    }),
    dir,
  );
  const contents = out.Contents ?? [];
  const prefixes = out.CommonPrefixes ?? [];
  if (!page.cursor && dir !== '' && contents.length === 0 && prefixes.length === 0) {
    if (await d.head(dir)) throw new StorageError('not_a_directory', 'not a directory', { path: dir });
    throw new StorageError('not_found', 'not found', { path: dir });
  }
  // Every key of the answer in key order; entries our paths cannot address (or the dir marker) are null.
  const raw: Array<{ key: string; cursorKey: string; entry: Entry | null }> = [];
  for (const object of contents) {
    if (!object.Key) continue;
    const path = object.Key === prefix || object.Key.endsWith('/') ? null : pathOfKey(d.prefix, object.Key);
    raw.push({
      key: object.Key,
      cursorKey: object.Key,
      entry:
        path === null
          ? null
          : fileEntry(path, {
              ContentLength: object.Size,
              LastModified: object.LastModified,
              ETag: object.ETag,
            }),
    });
  }
  for (const common of prefixes) {
    if (!common.Prefix) continue;
    const path = pathOfKey(d.prefix, common.Prefix);
    // StartAfter past everything below this prefix.
    raw.push({
      key: common.Prefix,
      cursorKey: `${common.Prefix}\u{10FFFF}`,
      entry: path ? dirEntry(path) : null,
    });
  }
  raw.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  const taken = raw.slice(0, limit);
  const entries = taken.map((r) => r.entry).filter((e): e is Entry => e !== null);
  const last = taken[taken.length - 1];
  const more = Boolean(out.IsTruncated) || raw.length > limit;
  return more && last ? { entries, cursor: Buffer.from(last.cursorKey, 'utf8').toString('base64url') } : { entries };
}
