import { apiErrorKind, ErrorStatus, type ApiEnvelope, type ErrorKind } from '@clipnest/contract';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { captureData } from './auditCapture.js';
import { sendJson } from './compressJson.js';

export function envelope<T>(status: number, message: string, data?: T): ApiEnvelope<T> {
  return { code: status, message, ...(data !== undefined ? { data } : {}), success: status < 400 };
}

/** An error envelope: its status comes from its kind, so the two never disagree. */
export function errorEnvelope<T>(kind: ErrorKind, message: string, data?: T): ApiEnvelope<T> {
  const status = ErrorStatus[kind];
  return { code: status, message, kind: apiErrorKind(kind), ...(data !== undefined ? { data } : {}), success: false };
}

/** An error reply in the spec's envelope. */
export function replyError(c: Context, kind: ErrorKind, message: string, data?: unknown) {
  return c.json(errorEnvelope(kind, message, data), ErrorStatus[kind] as ContentfulStatusCode);
}

/** A success reply in the spec's envelope. */
export function ok<T>(c: Context, data?: T, options: { status?: 200 | 201 | 202; message?: string } = {}) {
  const status = options.status ?? 200;
  captureData(c, data);
  return sendJson(c, envelope(status, options.message ?? 'success', data), status as ContentfulStatusCode);
}
