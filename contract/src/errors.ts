/**
 * Machine-readable error kinds; each maps to one HTTP status. Several kinds may share a status where the
 * client must tell the cases apart (a missing vs a wrong password, an expired share vs anything else gone).
 * The first kind listed for a status is its generic kind (used when only the status is known).
 */
export const ErrorStatus = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  PASSWORD_REQUIRED: 401,
  PASSWORD_WRONG: 401,
  /** The admin's password was right; the sign-in needs its second factor (a TOTP code, a recovery code or a passkey). */
  TOTP_REQUIRED: 401,
  /** The second factor given (code, recovery code, passkey) was wrong or already used. */
  TOTP_WRONG: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  EXPIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  LOCKED: 423,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

/** The server's name for a kind (AppError). */
export type ErrorKind = keyof typeof ErrorStatus;

/** The kind as an error envelope carries it: the lower-case name, from this closed list only. */
export type ApiErrorKind = Lowercase<ErrorKind>;

export const API_ERROR_KINDS = (Object.keys(ErrorStatus) as ErrorKind[]).map(
  (kind) => kind.toLowerCase() as ApiErrorKind,
) as readonly ApiErrorKind[];

export function apiErrorKind(kind: ErrorKind): ApiErrorKind {
  return kind.toLowerCase() as ApiErrorKind;
}

export function isApiErrorKind(value: unknown): value is ApiErrorKind {
  return typeof value === 'string' && (API_ERROR_KINDS as readonly string[]).includes(value);
}

/** The HTTP status of an envelope kind. */
export function statusOfApiErrorKind(kind: ApiErrorKind): number {
  return ErrorStatus[kind.toUpperCase() as ErrorKind];
}

/** The generic kind for a bare status (the first listed for it), or undefined when no kind has it. */
export function errorKindForStatus(status: number): ErrorKind | undefined {
  return (Object.keys(ErrorStatus) as ErrorKind[]).find((kind) => ErrorStatus[kind] === status);
}
