/**
 * One file into the tree: POST /api/fs/upload (multipart/form-data, `path` first) through
 * XMLHttpRequest for upload progress; the server streams it to the storage either way.
 */
import { isRecord } from '../../lib/apiErrors';
import { apiUrl, PART_UPLOAD_TIMEOUT_MS } from '../../lib/api';
import { authorizationHeader, getSession } from '../../lib/auth';
import { SpeedMeter } from '../upload/uploader/speed';

export interface FsUploadProgress {
  loaded: number;
  total: number;
  speed: number | null;
}

export class FsUploadError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

export function uploadToFs(
  file: Blob,
  targetPath: string,
  options: { signal: AbortSignal; onProgress: (p: FsUploadProgress) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const meter = new SpeedMeter();
    let stall: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(stall);
      stall = setTimeout(() => xhr.abort(), PART_UPLOAD_TIMEOUT_MS);
    };
    const onAbort = () => xhr.abort();
    const done = () => {
      clearTimeout(stall);
      options.signal.removeEventListener('abort', onAbort);
    };
    if (options.signal.aborted) {
      reject(new FsUploadError('cancelled', true));
      return;
    }
    options.signal.addEventListener('abort', onAbort);
    xhr.open('POST', apiUrl('/fs/upload'));
    xhr.setRequestHeader('Accept', 'application/json');
    const header = authorizationHeader(getSession());
    if (header) xhr.setRequestHeader('Authorization', header);
    xhr.upload.onprogress = (event) => {
      arm();
      meter.add(event.loaded, performance.now());
      options.onProgress({ loaded: event.loaded, total: file.size, speed: meter.speed() });
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress({ loaded: file.size, total: file.size, speed: meter.speed() });
        resolve();
        return;
      }
      let message = `HTTP ${xhr.status}`;
      try {
        const body: unknown = JSON.parse(xhr.responseText);
        if (isRecord(body) && typeof body.message === 'string' && body.message) message = body.message;
      } catch {
        // not JSON: keep the status
      }
      reject(new FsUploadError(message));
    };
    xhr.onerror = () => {
      done();
      reject(new FsUploadError('network error'));
    };
    xhr.onabort = () => {
      done();
      reject(new FsUploadError('cancelled', options.signal.aborted));
    };
    const form = new FormData();
    form.append('path', targetPath);
    form.append('file', file, targetPath.split('/').pop() ?? 'file');
    arm();
    xhr.send(form);
  });
}
