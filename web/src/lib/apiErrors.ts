/**
 * Pure mapping from a failed HTTP exchange to the user-facing message of spec §8.
 * No DOM, no i18n instance: the caller translates the key (see api.ts), so this is unit-testable.
 */
import { isApiErrorKind, type ApiErrorKind } from '@clipnest/contract/errors';

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
  | 'errors.invalidResponse';

/** Either a server-provided text (shown as is) or a translation key with parameters. */
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

function serverOr(message: string | undefined, fallback: ErrorText): ErrorText {
  const trimmed = message?.trim();
  return trimmed ? { text: trimmed } : fallback;
}

export function mapHttpFailure(failure: HttpFailure): MappedFailure {
  const { status, serverMessage, authKind, path } = failure;
  if (status === 401) {
    if (isChangePassword(path)) return { message: serverOr(serverMessage, { key: 'errors.verificationFailed' }) };
    if (isPasswordCheck(path, failure.body)) {
      return { message: serverOr(serverMessage, { key: 'errors.wrongPassword' }) };
    }
    if (authKind === 'bearer') {
      return { message: { key: 'errors.adminSessionExpired' }, logout: 'admin-token-expired' };
    }
    if (authKind === 'apikey') {
      // A 401 about something else than the key itself (a share's password) on a file or upload endpoint:
      // the server's message, and the key stays. Only `unauthorized` (or a reply without a kind) means a bad key.
      const aboutTheKey = failure.kind === undefined || failure.kind === 'unauthorized';
      if (isFileOrUploadEndpoint(path) && !aboutTheKey && serverMessage?.trim()) {
        return { message: { text: serverMessage.trim() } };
      }
      return { message: { key: 'errors.apiKeyInvalid' }, logout: 'api-key-invalid' };
    }
    return { message: { key: 'errors.unauthorized' } };
  }
  if (status === 409) return { message: serverOr(serverMessage, { key: 'errors.slugTaken' }) };
  return {
    message: serverOr(serverMessage, {
      key: 'errors.http',
      params: { status, statusText: failure.statusText || String(status) },
    }),
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
