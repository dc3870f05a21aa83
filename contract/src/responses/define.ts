import { API_ERROR_KINDS } from '../errors.js';
import { z } from '../zod.js';

type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Matches<T, O> = [T] extends [O] ? SameKeys<T, O> : false;

/**
 * A response schema that matches the interface `T` the server answers: its output and `T` must be assignable
 * both ways with the same keys, so a field added to one and not the other (optional or not) fails the typecheck.
 */
export function shapeOf<T>() {
  return <S extends z.ZodType<T>>(schema: S & (Matches<T, z.output<S>> extends true ? unknown : never)): S => schema;
}

/** A time as the API writes it (ISO 8601, UTC). */
export const isoTime = z.iso.datetime({ offset: true });

export const count = z.int().min(0);

/** `ListPage<T>` (envelope.ts). */
export function listPageOf<S extends z.ZodType>(item: S) {
  return z.object({ items: z.array(item), total: count, limit: count, offset: count, page: count.optional() });
}

/** A success reply of /api: `code` is the HTTP status, `data` what the route answers. */
export function envelopeOf<S extends z.ZodType>(data: S) {
  return z.object({ code: z.int(), message: z.string(), data, success: z.literal(true) });
}

/** A success reply without `data` (deletes, logout). */
export const emptyEnvelopeSchema = z.object({ code: z.int(), message: z.string(), success: z.literal(true) });

/** `data` of a 400 `validation` error: which fields failed and why. */
export const validationErrorDataSchema = z
  .object({ fields: z.array(z.object({ path: z.string(), message: z.string() })) })
  .meta({ id: 'ValidationErrorData' });

/** Every error reply of /api: `code` equals the status, `kind` says what went wrong (errors.ts, one closed list). */
export const errorEnvelopeSchema = z
  .object({
    code: z.int().min(400).max(599),
    message: z.string(),
    kind: z.enum(API_ERROR_KINDS as unknown as [string, ...string[]]),
    data: z.unknown().optional(),
    success: z.literal(false),
  })
  .meta({ id: 'ErrorEnvelope' });
