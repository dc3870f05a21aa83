/**
 * Normalises a user-supplied virtual path to `/a/b` form.
 * Returns null for anything that could escape a root: `..` segments (also percent-encoded),
 * NUL or other control characters. Backslashes are treated as separators.
 */
export function normalizeVirtualPath(input: string): string | null {
  let decoded = input;
  // Decode repeatedly so that double-encoded dots cannot slip through.
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      return null;
    }
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return null;
  const segments: string[] = [];
  for (const segment of decoded.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return null;
    segments.push(segment);
  }
  return '/' + segments.join('/');
}

/** True when `path` is `base` or lies below it (both normalised). */
export function isPathWithin(path: string, base: string): boolean {
  if (base === '/') return true;
  return path === base || path.startsWith(base + '/');
}
