import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isUniqueViolation } from '../db/errors.js';
import { AppError } from '../errors.js';
import type { Logger } from '../lib/logger.js';
import { envelope } from './envelope.js';

/** The one place an error becomes an HTTP reply. A stack trace never reaches the client. */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(envelope(error.status, error.message, error.data), error.status as ContentfulStatusCode);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      return c.json(envelope(status, error.message || 'request failed'), status as ContentfulStatusCode);
    }
    if (isUniqueViolation(error)) {
      return c.json(envelope(409, 'a record with this value already exists'), 409);
    }
    logger.error(`unhandled error on ${c.req.method} ${c.req.path}`, error);
    return c.json(envelope(500, 'internal server error'), 500);
  };
}
