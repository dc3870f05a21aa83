import { envelopeKind, isRecord, mapHttpFailure } from '../apiErrors';
import { apiUrl, PART_UPLOAD_TIMEOUT_MS, translateErrorText } from '../api';
import { authorizationHeader, getSession, logout } from '../auth';
import i18n from '../i18n';
import { buildUploadForm } from './fields';
import { SpeedMeter } from './speed';
import { UploadError, type Uploader, type UploadResult, type UploadTask } from './types';

/**
 * The plain form upload: one multipart POST /api/upload through the server, via XMLHttpRequest
 * because fetch has no upload progress events. A stall of 300 s without progress ends it
 * ("upload timed out"), so a large upload is never cut off merely for being slow.
 */
export function createFormUploader(options: { stallTimeoutMs?: number; endpoint?: string } = {}): Uploader {
  const stallTimeoutMs = options.stallTimeoutMs ?? PART_UPLOAD_TIMEOUT_MS;
  const endpoint = options.endpoint ?? '/upload';
  return {
    kind: 'form',
    upload(task: UploadTask): Promise<UploadResult> {
      const filename = task.filename ?? task.file.name;
      const total = task.file.size;
      const meter = new SpeedMeter();
      task.onProgress({ stage: 'starting', loaded: 0, total, speed: null, etaSeconds: null });

      return new Promise<UploadResult>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        let stallTimer: ReturnType<typeof setTimeout> | undefined;
        let timedOut = false;
        const armStall = () => {
          clearTimeout(stallTimer);
          stallTimer = setTimeout(() => {
            timedOut = true;
            xhr.abort();
          }, stallTimeoutMs);
        };
        const cleanup = () => {
          clearTimeout(stallTimer);
          task.signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => xhr.abort();

        xhr.open('POST', apiUrl(endpoint));
        xhr.responseType = 'text';
        xhr.setRequestHeader('Accept', 'application/json');
        const session = getSession();
        const header = authorizationHeader(session);
        if (header) xhr.setRequestHeader('Authorization', header);

        xhr.upload.onloadstart = () => {
          meter.add(0, performance.now());
          task.onProgress({ stage: 'uploading', loaded: 0, total, speed: null, etaSeconds: null });
          armStall();
        };
        xhr.upload.onprogress = (event) => {
          armStall();
          // event.total counts the whole multipart body; scale to the file's own size.
          const ratio = event.lengthComputable && event.total > 0 ? event.loaded / event.total : 0;
          const loaded = Math.min(total, Math.round(ratio * total));
          meter.add(loaded, performance.now());
          task.onProgress({ stage: 'uploading', loaded, total, speed: meter.speed(), etaSeconds: meter.eta(total) });
        };
        xhr.upload.onload = () => {
          // Every byte is sent; the server now finishes storing and creates the share.
          armStall();
          task.onProgress({ stage: 'processing', loaded: total, total, speed: meter.speed(), etaSeconds: 0 });
        };

        xhr.onload = () => {
          cleanup();
          const payload = parse(xhr.responseText);
          const ok = xhr.status >= 200 && xhr.status < 300;
          const codeOk = !isRecord(payload) || !('code' in payload) || [200, 201, 202].includes(Number(payload.code));
          if (ok && codeOk) {
            const data = isRecord(payload) && 'data' in payload ? payload.data : payload;
            if (!isRecord(data) || typeof data.slug !== 'string') {
              reject(new UploadError(i18n.t('errors.invalidResponse'), { status: xhr.status }));
              return;
            }
            task.onProgress({ stage: 'completed', loaded: total, total, speed: meter.speed(), etaSeconds: 0 });
            resolve(data as unknown as UploadResult);
            return;
          }
          const status = ok && isRecord(payload) && typeof payload.code === 'number' ? payload.code : xhr.status;
          const serverMessage =
            isRecord(payload) && typeof payload.message === 'string' && payload.message ? payload.message : undefined;
          const kind = header?.startsWith('Bearer ') ? 'bearer' : header ? 'apikey' : 'none';
          const mapped = mapHttpFailure({
            kind: envelopeKind(payload),
            data: isRecord(payload) ? payload.data : undefined,
            status,
            statusText: xhr.statusText,
            serverMessage,
            authKind: kind,
            path: endpoint,
            method: 'POST',
          });
          let message = translateErrorText(mapped.message);
          if (mapped.logout) logout(mapped.logout, message);
          else if (!envelopeKind(payload)) message = i18n.t('errors.upload.failedStatus', { status });
          reject(new UploadError(message, { status, serverMessage }));
        };
        xhr.onerror = () => {
          cleanup();
          reject(new UploadError(i18n.t('errors.upload.network')));
        };
        xhr.onabort = () => {
          cleanup();
          if (timedOut) {
            reject(new UploadError(i18n.t('errors.upload.timedOut')));
            return;
          }
          task.onProgress({ stage: 'cancelled', loaded: 0, total, speed: null, etaSeconds: null });
          reject(new UploadError(i18n.t('errors.upload.cancelled'), { cancelled: true }));
        };

        if (task.signal.aborted) {
          cleanup();
          task.onProgress({ stage: 'cancelled', loaded: 0, total, speed: null, etaSeconds: null });
          reject(new UploadError(i18n.t('errors.upload.cancelled'), { cancelled: true }));
          return;
        }
        task.signal.addEventListener('abort', onAbort);
        armStall();
        xhr.send(buildUploadForm(task.file, filename, task.options));
      });
    },
  };
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
