/** True for a unique/primary-key violation on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = String((error as { code: unknown }).code);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * True when PostgreSQL refused a text value it cannot store or compare: a NUL character (`\u0000`,
 * `%00` in a URL) or invalid UTF-8 ("invalid byte sequence for encoding UTF8": 22021, 22P05).
 * SQLite stores such text; on PostgreSQL it is bad input (400), never a 500.
 */
export function isUnstorableText(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = String((error as { code: unknown }).code);
  return code === '22021' || code === '22P05';
}
