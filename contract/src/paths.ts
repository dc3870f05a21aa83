/**
 * The one path normaliser of the app: virtual paths (`/mount/dir/file`, API fields, key base
 * paths, the SPA's URL paths) and driver paths (server/src/storage/paths.ts) both go through
 * `splitPath`, so `..`, percent-encoded dots / slashes / backslashes / NUL (also double-encoded),
 * backslashes, NUL and other control characters and over-long paths are refused in one place.
 *
 * A path must arrive decoded exactly once (a query string or a JSON field is already decoded): any
 * `%2e`, `%2f`, `%5c` or `%00` left in it (or `%252e` …) is an attack or a client bug and is refused.
 * Other `%` sequences are ordinary characters of a name (`100%.txt`, `a%20b` stays `a%20b`).
 */

/** Longest virtual path accepted anywhere, in UTF-8 bytes. */
export const MAX_VIRTUAL_PATH_BYTES = 4096;

// Percent-encoded `.`, `/`, `\` and NUL, also double-encoded (%252e).
const ENCODED_DANGER = /%(25)*(2e|2f|5c|00)/i;
// C0 controls and DEL. (NUL is the dangerous one; the others break headers and listings.)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** UTF-8 length of a string (no TextEncoder / Buffer here: the contract has neither DOM nor Node types). */
export function byteLength(value: string): number {
  let bytes = 0;
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

export type PathProblem =
  'not a string' | 'backslash' | 'control character' | 'encoded dot, slash or NUL' | "'..' segment" | 'path too long';

/**
 * The clean segments of a path (empty and `.` segments dropped), or the problem that refuses it.
 * `maxBytes` bounds the joined result (default MAX_VIRTUAL_PATH_BYTES).
 */
export function splitPath(
  input: unknown,
  maxBytes = MAX_VIRTUAL_PATH_BYTES,
): { segments: string[] } | { problem: PathProblem } {
  if (typeof input !== 'string') return { problem: 'not a string' };
  // Checked before splitting so a huge input is refused without work proportional to it.
  if (input.length > maxBytes * 2 + 16) return { problem: 'path too long' };
  if (input.includes('\\')) return { problem: 'backslash' };
  if (CONTROL.test(input)) return { problem: 'control character' };
  if (ENCODED_DANGER.test(input)) return { problem: 'encoded dot, slash or NUL' };
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return { problem: "'..' segment" };
    segments.push(segment);
  }
  if (byteLength(segments.join('/')) + 1 > maxBytes) return { problem: 'path too long' };
  return { segments };
}

/** `/a/b` form of a virtual path, or the problem that refuses it. */
export function parseVirtualPath(input: unknown): { path: string } | { problem: PathProblem } {
  const result = splitPath(input);
  if ('problem' in result) return result;
  return { path: '/' + result.segments.join('/') };
}

/**
 * Normalises a virtual path to `/a/b` form; null when `parseVirtualPath` refuses it.
 * `decode: true` is for raw URL paths: percent-decoded once first (a malformed escape is refused).
 */
export function normalizeVirtualPath(input: string, options: { decode?: boolean } = {}): string | null {
  let value = input;
  if (options.decode && value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  const result = parseVirtualPath(value);
  return 'path' in result ? result.path : null;
}

/** True when `path` is `base` or lies below it (both normalised): `/team` does not contain `/team-b`. */
export function isPathWithin(path: string, base: string): boolean {
  if (base === '/') return true;
  return path === base || path.startsWith(base + '/');
}

/** Parent of a normalised virtual path (`/` for top-level entries and for `/`). */
export function parentVirtualPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Joins a normalised virtual directory and a relative path or name. */
export function joinVirtualPath(dir: string, name: string): string {
  if (name === '') return dir;
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}
