import type { Context } from 'hono';

/**
 * What the audit trail may read of a request after its handler: the parsed JSON body (http/input.ts) and the
 * data of the success answer (http/envelope.ts). Kept only for changing requests, weakly (gone with the request).
 * The trail picks named id/path fields out of them, never the rest.
 */
interface Captured {
  body?: unknown;
  data?: unknown;
}

const captured = new WeakMap<object, Captured>();

function changing(c: Context): boolean {
  const method = c.req.method;
  return method !== 'GET' && method !== 'HEAD';
}

export function captureBody(c: Context, body: unknown): void {
  if (!changing(c)) return;
  const entry = captured.get(c) ?? {};
  entry.body = body;
  captured.set(c, entry);
}

export function captureData(c: Context, data: unknown): void {
  if (!changing(c)) return;
  const entry = captured.get(c) ?? {};
  entry.data = data;
  captured.set(c, entry);
}

export function capturedOf(c: Context): Captured {
  return captured.get(c) ?? {};
}
