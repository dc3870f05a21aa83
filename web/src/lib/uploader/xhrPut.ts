import { envelopeKind, isRecord, mapHttpFailure } from '../apiErrors';
import { apiUrl, getApiBaseUrl, PART_UPLOAD_TIMEOUT_MS, translateErrorText } from '../api';
import { authorizationHeader, getSession } from '../auth';
import i18n from '../i18n';
import { UploadError } from './types';

/** The request got no answer at all (offline, or a bucket whose CORS rules block the browser). */
export class UploadNetworkError extends UploadError {}

export interface PutOptions {
  /** Send the session's Authorization header (our own endpoints only, never a bucket). */
  auth?: boolean;
  headers?: Record<string, string>;
  signal: AbortSignal;
  onProgress?: (loaded: number) => void;
  /** A stall this long without progress ends the request ("upload timed out"). */
  stallTimeoutMs?: number;
}

export interface PutResult {
  status: number;
  etag: string | null;
  body: unknown;
}

/** A URL from the server: absolute (a bucket) or our own `/api/...` path. */
export function resolveUploadUrl(url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith('/api/')) return `${getApiBaseUrl()}${url}`;
  return apiUrl(url);
}

/**
 * PUT a blob with upload progress (XMLHttpRequest: fetch has no upload progress). Rejects with an
 * UploadError: `cancelled` when the signal aborts, the server's message on an HTTP error.
 */
export function xhrPut(url: string, blob: Blob, options: PutOptions): Promise<PutResult> {
  const stallMs = options.stallTimeoutMs ?? PART_UPLOAD_TIMEOUT_MS;
  return new Promise<PutResult>((resolve, reject) => {
    if (options.signal.aborted) {
      reject(new UploadError(i18n.t('errors.upload.cancelled'), { cancelled: true }));
      return;
    }
    const xhr = new XMLHttpRequest();
    let timedOut = false;
    let stall: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(stall);
      stall = setTimeout(() => {
        timedOut = true;
        xhr.abort();
      }, stallMs);
    };
    const onAbort = () => xhr.abort();
    const cleanup = () => {
      clearTimeout(stall);
      options.signal.removeEventListener('abort', onAbort);
    };
    xhr.open('PUT', resolveUploadUrl(url));
    xhr.responseType = 'text';
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    let authHeader: string | null = null;
    if (options.auth) {
      authHeader = authorizationHeader(getSession());
      if (authHeader) xhr.setRequestHeader('Authorization', authHeader);
      xhr.setRequestHeader('Accept', 'application/json');
    }
    xhr.upload.onprogress = (event) => {
      arm();
      options.onProgress?.(Math.min(blob.size, event.loaded));
    };
    xhr.onload = () => {
      cleanup();
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(blob.size);
        let etag: string | null;
        try {
          etag = xhr.getResponseHeader('ETag');
        } catch {
          etag = null;
        }
        if (!etag && isRecord(body) && isRecord(body.data) && typeof body.data.ETag === 'string') etag = body.data.ETag;
        resolve({ status: xhr.status, etag, body });
        return;
      }
      const serverMessage =
        isRecord(body) && typeof body.message === 'string' && body.message
          ? body.message
          : typeof body === 'string'
            ? s3Message(body)
            : undefined;
      if (!options.auth) {
        reject(
          new UploadError(
            serverMessage
              ? `${i18n.t('errors.upload.failedStatus', { status: xhr.status })} (${serverMessage})`
              : i18n.t('errors.upload.failedStatus', { status: xhr.status }),
            { status: xhr.status },
          ),
        );
        return;
      }
      const mapped = mapHttpFailure({
        kind: envelopeKind(body),
        data: isRecord(body) ? body.data : undefined,
        status: xhr.status,
        statusText: xhr.statusText,
        serverMessage,
        authKind: authHeader?.startsWith('Bearer ') ? 'bearer' : authHeader ? 'apikey' : 'none',
        path: '/upload/multipart/part',
        method: 'PUT',
      });
      reject(
        new UploadError(
          envelopeKind(body)
            ? translateErrorText(mapped.message)
            : i18n.t('errors.upload.failedStatus', { status: xhr.status }),
          { status: xhr.status, serverMessage },
        ),
      );
    };
    xhr.onerror = () => {
      cleanup();
      reject(new UploadNetworkError(i18n.t('errors.upload.network')));
    };
    xhr.onabort = () => {
      cleanup();
      if (timedOut) reject(new UploadError(i18n.t('errors.upload.timedOut')));
      else reject(new UploadError(i18n.t('errors.upload.cancelled'), { cancelled: true }));
    };
    options.signal.addEventListener('abort', onAbort);
    arm();
    xhr.send(blob);
  });
}

/** The <Message> of an S3 XML error, if any. */
function s3Message(text: string): string | undefined {
  const match = /<Message>([^<]{1,300})<\/Message>/.exec(text);
  return match?.[1];
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
