import type { ApiErrorKind } from './errors.js';

/** Every /api reply (spec §7): `code` equals the HTTP status; an error reply also carries its `kind`. */
export interface ApiEnvelope<T = unknown> {
  code: number;
  message: string;
  /** Present on every error reply (success false): what went wrong, from one closed list. */
  kind?: ApiErrorKind;
  data?: T;
  success: boolean;
}

/** Shape of `data` on a validation error: which fields failed and why. */
export interface ValidationErrorData {
  fields: { path: string; message: string }[];
}

export interface ListPage<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  page?: number;
}
