/**
 * A name that would land outside the folder an archive is unpacked into (zip-slip): an absolute path, a drive
 * letter, a backslash (a separator on Windows) or a `..` segment. Such names are listed as they are, flagged, and
 * only ever compared as strings.
 */
export function isUnsafeEntryName(name: string): boolean {
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return true;
  return name.split('/').includes('..');
}
