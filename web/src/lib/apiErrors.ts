/**
 * Pure mapping from a failed HTTP exchange to the user-facing message of spec §8.
 * No DOM, no i18n instance: the caller translates the key (see api.ts), so this is unit-testable.
 */
import { errorKindForStatus, isApiErrorKind, type ApiErrorKind } from '@clipnest/contract/errors';

/** Which credentials the failed request carried. */
export type AuthKind = 'bearer' | 'apikey' | 'none';

export type ErrorMessageKey =
  | 'errors.wrongPassword'
  | 'errors.verificationFailed'
  | 'errors.adminSessionExpired'
  | 'errors.apiKeyInvalid'
  | 'errors.unauthorized'
  | 'errors.authFailed'
  | 'errors.slugTaken'
  | 'errors.http'
  | 'errors.aborted'
  | 'errors.timeout'
  | 'errors.network'
  | 'errors.invalidResponse'
  | `errors.kinds.${ApiErrorKind}`
  | `errors.reasons.${ErrorReason}`;

/**
 * Finer causes the server names in `data.reason` where one kind covers cases the user must tell apart.
 * The UI words each one itself; the server's sentence stays a detail.
 */
export const ERROR_REASONS = ['url_refused', 'url_unreachable'] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/**
 * A translation key with parameters. The server's own sentence is never the message (it is English and
 * meant for logs and scripts): it stays on ApiError.serverMessage, a detail the user may expand.
 * `{ text }` is for texts already translated by the caller.
 */
export type ErrorText = { text: string } | { key: ErrorMessageKey; params?: Record<string, string | number> };

export type LogoutReason = 'admin-token-expired' | 'api-key-invalid';

export interface HttpFailure {
  status: number;
  statusText: string;
  /** The envelope's `message`, when the body had one. */
  serverMessage?: string;
  authKind: AuthKind;
  /** Path relative to /api, e.g. `/admin/api-keys`. */
  path: string;
  method: string;
  /** The request body (JSON object) if any: a body with a password marks a password check. */
  body?: unknown;
  /** The envelope's machine-readable kind, when the body had one (`envelopeKind`). */
  kind?: ApiErrorKind;
  /** The envelope's `data` (validation fields, a reason). */
  data?: unknown;
}

/** The `kind` of an error envelope, when it is one of the contract's kinds. */
export function envelopeKind(payload: unknown): ApiErrorKind | undefined {
  return isRecord(payload) && isApiErrorKind(payload.kind) ? payload.kind : undefined;
}

export interface MappedFailure {
  message: ErrorText;
  /** Set when the session must end (spec §8: 401 with Bearer / ApiKey). */
  logout?: LogoutReason;
}

const SUCCESS_CODES = new Set([200, 201, 202]);

/** Spec §7: a body carrying `code` is a success only with 200, 201 or 202. */
export function isEnvelopeSuccess(body: unknown): boolean {
  if (!isRecord(body) || !('code' in body)) return true;
  return typeof body.code === 'number' && SUCCESS_CODES.has(body.code);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request whose JSON body contains a password is a paste/file password check (spec §5). */
export function isPasswordCheck(path: string, body: unknown): boolean {
  if (isChangePassword(path) || isLogin(path)) return false;
  return isRecord(body) && Object.prototype.hasOwnProperty.call(body, 'password');
}

function isChangePassword(path: string): boolean {
  return stripQuery(path) === '/admin/change-password';
}

function isLogin(path: string): boolean {
  return stripQuery(path) === '/admin/login';
}

function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/** Endpoints that upload or serve shared files (spec §8: their own 401 messages are shown to ApiKey users). */
export function isFileOrUploadEndpoint(path: string): boolean {
  const p = stripQuery(path);
  return /^\/(upload|files|user\/files|public\/files|s3\/|url\/|fs\/(upload|multipart|presign)|file-download|file-view)/.test(
    p,
  );
}

/** `data.reason` of an error envelope, when it is one the UI words. */
export function errorReason(data: unknown): ErrorReason | undefined {
  const reason = isRecord(data) ? data.reason : undefined;
  return typeof reason === 'string' && (ERROR_REASONS as readonly string[]).includes(reason)
    ? (reason as ErrorReason)
    : undefined;
}

/** The fields a validation or conflict envelope names (`data.fields[].path`). */
export function errorFields(data: unknown): string[] {
  const fields = isRecord(data) && Array.isArray(data.fields) ? (data.fields as unknown[]) : [];
  return fields.flatMap((f) => (isRecord(f) && typeof f.path === 'string' ? [f.path] : []));
}

/** The text of a kind: one per contract kind, in every language (locales.test.ts walks them). */
function kindText(kind: ApiErrorKind): ErrorText {
  return { key: `errors.kinds.${kind}` };
}

export function mapHttpFailure(failure: HttpFailure): MappedFailure {
  const { status, authKind, path } = failure;
  const kind = failure.kind ?? (errorKindForStatus(status)?.toLowerCase() as ApiErrorKind | undefined);
  if (status === 401) {
    if (isChangePassword(path)) return { message: { key: 'errors.verificationFailed' } };
    if (isPasswordCheck(path, failure.body)) {
      return { message: { key: 'errors.wrongPassword' } };
    }
    // A wrong second-factor code or password sent with a valid session says nothing about the session itself.
    if (authKind === 'bearer' && (failure.kind === 'totp_wrong' || failure.kind === 'totp_required')) {
      return { message: kindText(failure.kind) };
    }
    if (authKind === 'bearer' && failure.kind === 'password_wrong') return { message: { key: 'errors.wrongPassword' } };
    if (authKind === 'bearer') {
      return { message: { key: 'errors.adminSessionExpired' }, logout: 'admin-token-expired' };
    }
    if (authKind === 'apikey') {
      // A 401 about something else than the key itself (a share's password) on a file or upload endpoint:
      // its own text, and the key stays. Only `unauthorized` (or a reply without a kind) means a bad key.
      const aboutTheKey = failure.kind === undefined || failure.kind === 'unauthorized';
      if (isFileOrUploadEndpoint(path) && !aboutTheKey && kind) {
        return { message: kind === 'password_wrong' ? { key: 'errors.wrongPassword' } : kindText(kind) };
      }
      return { message: { key: 'errors.apiKeyInvalid' }, logout: 'api-key-invalid' };
    }
    if (kind === 'password_wrong') return { message: { key: 'errors.wrongPassword' } };
    if (kind === 'password_required') return { message: kindText(kind) };
    return { message: { key: 'errors.unauthorized' } };
  }
  const reason = errorReason(failure.data);
  if (reason) return { message: { key: `errors.reasons.${reason}` } };
  if (status === 409) {
    // Spec §8: a 409 without more is the link suffix; a conflict naming another field has its generic text.
    const fields = errorFields(failure.data);
    if (fields.includes('slug') || failure.kind === undefined) return { message: { key: 'errors.slugTaken' } };
  }
  if (kind) return { message: kindText(kind) };
  return {
    message: { key: 'errors.http', params: { status, statusText: failure.statusText || String(status) } },
  };
}

/** What went wrong before any HTTP status arrived. */
export type TransportFailure = 'aborted' | 'timeout' | 'network';

export function mapTransportFailure(kind: TransportFailure): ErrorText {
  switch (kind) {
    case 'aborted':
      return { key: 'errors.aborted' };
    case 'timeout':
      return { key: 'errors.timeout' };
    case 'network':
      return { key: 'errors.network' };
  }
}
