/** Every /api reply (spec §7): `code` equals the HTTP status. */
export interface ApiEnvelope<T = unknown> {
  code: number;
  message: string;
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
