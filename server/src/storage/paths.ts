// Path helpers shared by every driver and by whoever calls them (vfs, file-share services).
import { splitPath } from '@clipnest/contract';
import { StorageError } from './types.js';

/** S3 keys are at most 1024 bytes; the same limit everywhere keeps drivers interchangeable. */
export const MAX_PATH_BYTES = 1024;
/** Most file systems limit one name to 255 bytes. */
export const MAX_SEGMENT_BYTES = 255;
/** Names starting with this are the drivers' own (temp files, multipart staging) and never listed. */
export const RESERVED_PREFIX = '.clipnest-';

function invalid(input: string, why: string): StorageError {
  return new StorageError('invalid_path', `invalid path: ${why}`, { path: input });
}

/**
 * Turns a user- or client-supplied path into a clean relative POSIX path ('' = root):
 * leading/trailing/double slashes and `.` segments are dropped. The app's one normaliser
 * (`splitPath`, contract/src/paths.ts) refuses `..` segments, percent-encoded dots/slashes/backslashes/NUL
 * (also double-encoded), backslashes, NUL and other control characters; on top of it drivers refuse
 * reserved names (`.clipnest-*`), over-long names and paths over MAX_PATH_BYTES
 * (StorageError('invalid_path')).
 */
export function normalizePath(input: string): string {
  const split = splitPath(input, MAX_PATH_BYTES + 1); // +1: splitPath counts a leading slash
  if ('problem' in split) throw invalid(String(input), split.problem);
  for (const segment of split.segments) {
    if (segment.startsWith(RESERVED_PREFIX)) throw invalid(input, 'reserved name');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw invalid(input, 'name too long');
  }
  const out = split.segments.join('/');
  if (Buffer.byteLength(out) > MAX_PATH_BYTES) throw invalid(input, 'path too long');
  return out;
}

/** Checks that a path is already normalised (what drivers do on entry); returns it. */
export function assertNormalized(path: string): string {
  const clean = normalizePath(path);
  if (clean !== path) throw invalid(path, 'not normalised');
  return path;
}

/** Joins normalised paths (or plain names); the result is normalised again. */
export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter((p) => p !== '').join('/'));
}

/** Parent of a normalised path ('' for top-level entries and for the root). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Last segment of a normalised path ('' for the root). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** true when `inner` is `outer` or lies below it (both normalised). */
export function isWithin(inner: string, outer: string): boolean {
  return outer === '' || inner === outer || inner.startsWith(`${outer}/`);
}
