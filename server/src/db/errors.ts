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

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
// What node-postgres says when a connection dies or cannot be had (no code of its own).
const CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Connection ended)/;

/**
 * True when the database could not be reached or the connection died mid-query (PostgreSQL restarting, the
 * network gone): a socket error, node-postgres's own "Connection terminated…", or PostgreSQL's class 08
 * (connection exception) and 57P01–57P03 (shutting down, starting up). Answered 503, never 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? String((error as { code: unknown }).code) : '';
  if (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return error instanceof Error && CONNECTION_MESSAGES.test(error.message);
}
