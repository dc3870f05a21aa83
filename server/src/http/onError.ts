import { errorKindForStatus } from '@clipnest/contract';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnavailable, isUniqueViolation, isUnstorableText } from '../db/errors.js';
import { AppError } from '../errors.js';
import type { Logger } from '../lib/logger.js';
import { replyError } from './envelope.js';
import type { AppEnv } from './env.js';

/** The one place an error becomes an HTTP reply. A stack trace never reaches the client. */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return replyError(c, error.kind, error.message, error.data);
    }
    if (error instanceof HTTPException) {
      // A status no kind has is answered with the generic kind of its class, so kind and status agree.
      const kind = errorKindForStatus(error.status) ?? (error.status >= 500 ? 'INTERNAL' : 'VALIDATION');
      return replyError(c, kind, error.message || 'request failed');
    }
    if (isUniqueViolation(error)) return replyError(c, 'CONFLICT', 'a record with this value already exists');
    // A NUL or invalid UTF-8 in an id, slug or text that reached PostgreSQL (found by the security fuzzer).
    if (isUnstorableText(error)) return replyError(c, 'VALIDATION', 'the request contains a NUL or invalid character');
    const requestId = (c as Context<AppEnv>).get('requestId');
    // PostgreSQL restarting or out of reach: the request failed cleanly and the next one may work (the pool reconnects).
    if (isDatabaseUnavailable(error)) {
      logger.error(
        `database unreachable on ${c.req.method} ${c.req.path}${requestId ? ` (req_id ${requestId})` : ''}`,
        error,
      );
      c.header('Retry-After', '1');
      return replyError(c, 'UNAVAILABLE', 'the database is not reachable, try again shortly');
    }
    logger.error(`unhandled error on ${c.req.method} ${c.req.path}${requestId ? ` (req_id ${requestId})` : ''}`, error);
    return replyError(c, 'INTERNAL', 'internal server error');
  };
}
