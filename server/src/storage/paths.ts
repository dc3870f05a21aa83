// Path helpers shared by every driver and by whoever calls them (vfs, file-share services).
import { splitPath } from '@clipnest/contract';
import { StorageError } from './types.js';

/** S3 keys are at most 1024 bytes; the same limit everywhere keeps drivers interchangeable. */
export const MAX_PATH_BYTES = 1024;
/** Most file systems limit one name to 255 bytes. */
export const MAX_SEGMENT_BYTES = 255;
/** Names starting with this are the drivers' own (temp files, multipart staging) and never listed. */
export const RESERVED_PREFIX = '.clipnest-';
/**
 * The folder at the top of a storage where file shares keep their objects. Its name is reserved, so no
 * mount path, WebDAV path or fs API path can name it and no listing shows it: shares and mounts of one
 * storage never see each other's objects. Only drivers accept it (`assertNormalized`), as the first segment
 * of a path the share services build themselves.
 */
export const SHARE_AREA = `${RESERVED_PREFIX}shares`;

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
export function normalizePath(input: string, options: { shareArea?: boolean } = {}): string {
  const split = splitPath(input, MAX_PATH_BYTES + 1); // +1: splitPath counts a leading slash
  if ('problem' in split) throw invalid(String(input), split.problem);
  for (const [index, segment] of split.segments.entries()) {
    const shareArea = options.shareArea === true && index === 0 && segment === SHARE_AREA;
    if (segment.startsWith(RESERVED_PREFIX) && !shareArea) throw invalid(input, 'reserved name');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw invalid(input, 'name too long');
  }
  const out = split.segments.join('/');
  if (Buffer.byteLength(out) > MAX_PATH_BYTES) throw invalid(input, 'path too long');
  return out;
}

/**
 * Checks that a path is already normalised (what drivers do on entry); returns it. Drivers also accept the
 * share area (SHARE_AREA/…): callers that take a path from a user normalise it with `normalizePath` first,
 * which refuses it.
 */
export function assertNormalized(path: string): string {
  const clean = normalizePath(path, { shareArea: true });
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

/** The path of a share object in its storage: inside SHARE_AREA unless the storage is the built-in one. */
export function shareObjectPath(folder: string, name: string, inShareArea: boolean): string {
  return [inShareArea ? SHARE_AREA : '', folder, name].filter((p) => p !== '').join('/');
}

/** A share's folder as users see it: its storage path's folder without SHARE_AREA. */
export function shareFolderOf(storagePath: string): string {
  const folder = storagePath.includes('/') ? storagePath.slice(0, storagePath.lastIndexOf('/')) : '';
  if (folder === SHARE_AREA) return '';
  return folder.startsWith(`${SHARE_AREA}/`) ? folder.slice(SHARE_AREA.length + 1) : folder;
}
