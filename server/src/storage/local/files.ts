// What the local driver's files are called and how they show: entries, ETags, temp files of writes.
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { baseName, RESERVED_PREFIX } from '../paths.js';
import type { Entry } from '../types.js';

export function etagOf(st: BigIntStats): string {
  return `"${st.ino.toString(16)}-${st.size.toString(16)}-${st.mtimeNs.toString(16)}"`;
}

export function unquote(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

export function tempName(): string {
  return `${RESERVED_PREFIX}${randomBytes(12).toString('hex')}.tmp`;
}
/** What `tempName()` makes (RESERVED_PREFIX is `.clipnest-`). */
export const TEMP_NAME = /^\.clipnest-[0-9a-f]{24}\.tmp$/;
/**
 * Temp files this process is writing (absolute paths, every driver instance): the sweep never takes
 * them, however long a slow upload leaves one untouched (bytes are written in 1 MiB batches).
 */
export const writingTemps = new Set<string>();

/** Runs `fn` with `tmp` marked as being written. */
export async function writingTemp<T>(tmp: string, fn: () => Promise<T>): Promise<T> {
  writingTemps.add(tmp);
  try {
    return await fn();
  } finally {
    writingTemps.delete(tmp);
  }
}

/** The entry of a path from its stat. */
export function entryOf(path: string, st: BigIntStats): Entry {
  const isDir = st.isDirectory();
  return {
    path,
    name: baseName(path),
    isDir,
    size: isDir ? 0 : Number(st.size),
    lastModified: new Date(Number(st.mtimeMs)),
    ...(isDir ? {} : { etag: etagOf(st) }),
  };
}
