/** A parsed `Range: bytes=…` header (one range; `end` inclusive), in the drivers' ByteRange shape. */
export type ParsedRange = { start: number; end?: number } | { suffix: number };

/**
 * Parses a Range header. Returns:
 * - `undefined` when there is no header, it is not a `bytes` range or it is malformed or multi-range
 *   (RFC 9110 lets a server ignore such a header and answer 200 with the whole body);
 * - 'unsatisfiable' when it is well-formed but cannot be served for `size` bytes (→ 416);
 * - the range otherwise, resolved against `size` (`end` clamped to the last byte).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return undefined;
  if (startText === '') {
    const suffix = Number(endText);
    if (!Number.isSafeInteger(suffix)) return undefined;
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Number(endText);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  if (endText !== '' && end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** `If-None-Match` matches an ETag (weak comparison, `*` matches anything). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  const target = strip(etag);
  return header.split(',').some((t) => t.trim() === '*' || strip(t) === target);
}

/** `If-Range`: an ETag (strong match) or a date; false means "send the whole body". */
export function ifRangeAllows(header: string | undefined, etag: string, lastModified: Date | undefined): boolean {
  if (!header) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && value === etag;
  const date = Date.parse(value);
  if (Number.isNaN(date) || !lastModified) return false;
  return Math.floor(lastModified.getTime() / 1000) <= Math.floor(date / 1000);
}
