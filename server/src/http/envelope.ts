import type { ApiEnvelope } from '@clipnest/contract';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { sendJson } from './compressJson.js';

export function envelope<T>(status: number, message: string, data?: T): ApiEnvelope<T> {
  return { code: status, message, ...(data !== undefined ? { data } : {}), success: status < 400 };
}

/** A success reply in the spec's envelope. */
export function ok<T>(c: Context, data?: T, options: { status?: 200 | 201 | 202; message?: string } = {}) {
  const status = options.status ?? 200;
  return sendJson(c, envelope(status, options.message ?? 'success', data), status as ContentfulStatusCode);
}
