/**
 * HTTP client for the Clipnest API (spec §7, §8).
 * - Base URL: the runtime config's apiBaseUrl (lib/runtimeConfig.ts, read once at boot), else
 *   localStorage `api_base_url`, else this page's origin.
 * - Every call goes to `{base}/api{path}`; absolute http(s) URLs pass unchanged.
 * - JSON bodies are serialised; FormData/Blob/strings are sent as they are.
 * - 30 s timeout by default, 300 s for part uploads.
 * - Any body with `code` must carry 200/201/202, else its message is raised as an ApiError.
 */
import type { ApiEnvelope } from '@clipnest/contract';
import type { ApiErrorKind } from '@clipnest/contract/errors';
import {
  isEnvelopeSuccess,
  isRecord,
  envelopeKind,
  mapHttpFailure,
  mapTransportFailure,
  type AuthKind,
  type ErrorText,
  type LogoutReason,
} from './apiErrors';
import { authorizationHeader, getSession, logout } from './auth';
import i18n from './i18n';
import { runtimeConfig } from './runtimeConfig';
import { safeStorage, StorageKeys } from './storageKeys';

export const REQUEST_TIMEOUT_MS = 30_000;
export const PART_UPLOAD_TIMEOUT_MS = 300_000;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status (or the envelope code); 0 when no response arrived. */
  readonly status: number;
  /** The server's own message, if any. */
  readonly serverMessage: string | undefined;
  /** `data` of the error envelope (e.g. validation fields). */
  readonly data: unknown;
  /** The envelope's machine-readable kind (contract errors.ts); decisions use it, never the message text. */
  readonly kind: ApiErrorKind | undefined;
  /** aborted / timeout / network when no response arrived. */
  readonly transport: 'aborted' | 'timeout' | 'network' | undefined;
  /** Set when this error ended the session. */
  readonly loggedOut: LogoutReason | undefined;

  constructor(
    message: string,
    init: {
      status: number;
      serverMessage?: string;
      data?: unknown;
      kind?: ApiErrorKind;
      transport?: 'aborted' | 'timeout' | 'network';
      loggedOut?: LogoutReason;
    },
  ) {
    super(message);
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.data = init.data;
    this.kind = init.kind;
    this.transport = init.transport;
    this.loggedOut = init.loggedOut;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function translateErrorText(text: ErrorText): string {
  if ('text' in text) return text.text;
  return i18n.t(text.key, text.params ?? {});
}

/** A message for any thrown value, for toasts. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return i18n.t('errors.unknown');
}

export function getApiBaseUrl(): string {
  const runtime = runtimeConfig.apiBaseUrl;
  const saved = safeStorage.get(StorageKeys.apiBaseUrl);
  const base = runtime || saved || (typeof window !== 'undefined' ? window.location.origin : '');
  return base.replace(/\/+$/, '');
}

export function apiUrl(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${getApiBaseUrl()}/api${path.startsWith('/') ? path : `/${path}`}`;
}

export type QueryValue = string | number | boolean | null | undefined;

export type RequestAuth = 'session' | 'none' | { bearer: string } | { apiKey: string };

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Default 30 s; use PART_UPLOAD_TIMEOUT_MS for part uploads. */
  timeoutMs?: number;
  /** Which credentials to send; default: the stored session. */
  auth?: RequestAuth;
  /** When false a 401 never ends the session (login forms verify credentials this way). Default true. */
  handleAuthErrors?: boolean;
}

function withQuery(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

function resolveAuthHeader(auth: RequestAuth): { header: string | null; kind: AuthKind } {
  if (auth === 'none') return { header: null, kind: 'none' };
  if (auth === 'session') {
    const header = authorizationHeader(getSession());
    return { header, kind: header?.startsWith('Bearer ') ? 'bearer' : header ? 'apikey' : 'none' };
  }
  if ('bearer' in auth) return { header: `Bearer ${auth.bearer}`, kind: 'bearer' };
  return { header: `ApiKey ${auth.apiKey}`, kind: 'apikey' };
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams ||
    ArrayBuffer.isView(body) ||
    (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream)
  );
}

/** Sends a request and returns the whole envelope (for callers that need `message`). */
export async function apiEnvelope<T>(path: string, options: RequestOptions = {}): Promise<ApiEnvelope<T>> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const relPath = withQuery(path, options.query);
  const url = apiUrl(relPath);
  const { header, kind } = resolveAuthHeader(options.auth ?? 'session');

  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (header) headers.Authorization = header;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (isRawBody(options.body)) body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort);
  if (options.signal?.aborted) controller.abort();

  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(url, { method, headers, body, signal: controller.signal });
    const text = await response.text();
    payload = text ? safeParse(text) : undefined;
  } catch (error) {
    const aborted = controller.signal.aborted || (error instanceof DOMException && error.name === 'AbortError');
    const transport = timedOut ? 'timeout' : aborted ? 'aborted' : 'network';
    throw new ApiError(translateErrorText(mapTransportFailure(transport)), { status: 0, transport });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }

  const envelopeOk = isEnvelopeSuccess(payload);
  if (response.ok && envelopeOk) {
    if (isRecord(payload) && 'code' in payload) return payload as unknown as ApiEnvelope<T>;
    // Not an envelope (should not happen for /api): wrap it so callers see one shape.
    return { code: response.status, message: '', data: payload as T, success: true };
  }

  const envelopeCode = isRecord(payload) && typeof payload.code === 'number' ? payload.code : undefined;
  const status = response.ok && envelopeCode !== undefined ? envelopeCode : response.status;
  const serverMessage =
    isRecord(payload) && typeof payload.message === 'string' && payload.message ? payload.message : undefined;
  const mapped = mapHttpFailure({
    kind: envelopeKind(payload),
    data: isRecord(payload) ? payload.data : undefined,
    status,
    statusText: response.statusText,
    serverMessage,
    authKind: kind,
    path: relPath,
    method,
    body: options.body,
  });

  let message = translateErrorText(mapped.message);
  let loggedOut: LogoutReason | undefined;
  if (mapped.logout && options.handleAuthErrors !== false && (options.auth ?? 'session') === 'session') {
    try {
      logout(mapped.logout, message);
      loggedOut = mapped.logout;
    } catch {
      message = i18n.t('errors.authFailed');
    }
  }
  throw new ApiError(message, {
    status,
    serverMessage,
    data: isRecord(payload) ? payload.data : undefined,
    kind: envelopeKind(payload),
    loggedOut,
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Sends a request and returns `data` of the envelope. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const envelope = await apiEnvelope<T>(path, options);
  return envelope.data as T;
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE', body }),
};
