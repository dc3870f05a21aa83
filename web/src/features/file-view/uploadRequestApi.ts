import type { PublicUploadRequestInfo, UploadRequestReceipt } from '@clipnest/contract';
import { SHARE_PASSWORD_HEADER } from '@clipnest/contract/share-headers';
import { useQuery } from '@tanstack/react-query';
import { api, apiUrl } from '../../lib/api';

const requestPath = (slug: string) => `/upload-requests/${encodeURIComponent(slug)}`;

/** GET /api/upload-requests/{slug}: limits and what remains; the note once the password is given. */
export function fetchUploadRequest(slug: string, password?: string, signal?: AbortSignal) {
  return api.get<PublicUploadRequestInfo>(requestPath(slug), {
    ...(signal ? { signal } : {}),
    auth: 'none',
    handleAuthErrors: false,
    ...(password ? { headers: { [SHARE_PASSWORD_HEADER]: password } } : {}),
  });
}

export function useUploadRequest(slug: string, password: string | undefined) {
  return useQuery({
    queryKey: ['public-upload-request', slug, password ?? ''],
    queryFn: ({ signal }) => fetchUploadRequest(slug, password, signal),
    enabled: slug !== '',
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** Why an upload failed, as the page words it. */
export type SendFailure =
  'quota' | 'expired' | 'gone' | 'password' | 'rateLimited' | 'network' | 'tooLarge' | 'invalid' | 'server';

export class SendError extends Error {
  constructor(
    readonly failure: SendFailure,
    readonly detail?: string,
  ) {
    super(failure);
  }
}

function failureOf(status: number, kind: unknown): SendFailure {
  if (kind === 'quota_exceeded' || kind === 'payload_too_large' || status === 413) return 'quota';
  if (kind === 'expired') return 'expired';
  if (kind === 'gone' || status === 410) return 'gone';
  if (kind === 'password_wrong' || kind === 'password_required' || status === 401) return 'password';
  if (kind === 'rate_limited' || status === 429) return 'rateLimited';
  if (status >= 400 && status < 500) return 'invalid';
  return 'server';
}

/** POST …/upload of one file with upload progress (XMLHttpRequest: fetch has no upload progress). */
export function sendFile(
  slug: string,
  file: File,
  options: { password?: string; signal: AbortSignal; onProgress: (loaded: number) => void },
): Promise<UploadRequestReceipt> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(`${requestPath(slug)}/upload`));
    xhr.responseType = 'text';
    xhr.setRequestHeader('Accept', 'application/json');
    if (options.password) xhr.setRequestHeader(SHARE_PASSWORD_HEADER, options.password);
    xhr.upload.onprogress = (event) => {
      const ratio = event.lengthComputable && event.total > 0 ? event.loaded / event.total : 0;
      options.onProgress(Math.min(file.size, Math.round(ratio * file.size)));
    };
    xhr.onload = () => {
      let payload: { data?: unknown; kind?: unknown; message?: unknown } | undefined;
      try {
        payload = JSON.parse(xhr.responseText) as typeof payload;
      } catch {
        payload = undefined;
      }
      if (xhr.status === 201 && payload?.data) {
        resolve(payload.data as UploadRequestReceipt);
        return;
      }
      const detail = typeof payload?.message === 'string' ? payload.message : undefined;
      reject(new SendError(failureOf(xhr.status, payload?.kind), detail));
    };
    xhr.onerror = () => reject(new SendError('network'));
    xhr.onabort = () => reject(new SendError('network'));
    options.signal.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
