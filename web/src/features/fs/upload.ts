/**
 * One file into the tree. Small files: POST /api/fs/upload (multipart/form-data, `path` first) through
 * XMLHttpRequest for upload progress. Big files: the fs multipart flow (init, one PUT per part straight to
 * the storage or through /api/fs/multipart/part, complete), aborted on cancel.
 */
import type { FsMultipartInit } from '@clipnest/contract';
import { isRecord } from '../../lib/apiErrors';
import { api, apiUrl, PART_UPLOAD_TIMEOUT_MS } from '../../lib/api';
import { authorizationHeader, getSession } from '../../lib/auth';
import { SpeedMeter } from '../../lib/uploader/speed';
import { xhrPut } from '../../lib/uploader/xhrPut';

/** Files from this size up go through the multipart flow. */
export const FS_MULTIPART_THRESHOLD = 32 * 1024 * 1024;

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

type UploadOptions = { signal: AbortSignal; onProgress: (p: FsUploadProgress) => void };

export function uploadToFs(file: Blob, targetPath: string, options: UploadOptions): Promise<void> {
  return file.size >= FS_MULTIPART_THRESHOLD
    ? multipartUpload(file, targetPath, options)
    : formUpload(file, targetPath, options);
}

async function multipartUpload(file: Blob, path: string, options: UploadOptions): Promise<void> {
  const init = await api.post<FsMultipartInit>('/fs/multipart/init', {
    path,
    fileSize: file.size,
    contentType: file.type || undefined,
  });
  const meter = new SpeedMeter();
  const loaded = new Map<number, number>();
  const report = () => {
    const total = [...loaded.values()].reduce((a, b) => a + b, 0);
    meter.add(total, performance.now());
    options.onProgress({ loaded: total, total: file.size, speed: meter.speed() });
  };
  const urls = new Map(init.presignedUrls.map((u) => [u.partNumber, u.url]));
  const parts: { PartNumber: number; ETag: string }[] = [];
  try {
    for (let n = 1; n <= init.partCount; n++) {
      const blob = file.slice((n - 1) * init.partSize, Math.min(file.size, n * init.partSize));
      const url = init.presigned
        ? urls.get(n)!
        : `/api/fs/multipart/part?${new URLSearchParams({ path: init.path, uploadId: init.uploadId, partNumber: String(n) })}`;
      const result = await xhrPut(url, blob, {
        auth: !init.presigned,
        signal: options.signal,
        onProgress: (bytes) => {
          loaded.set(n, bytes);
          report();
        },
      });
      if (!result.etag) throw new FsUploadError(`part ${n}: no ETag`);
      parts.push({ PartNumber: n, ETag: result.etag });
    }
    await api.post('/fs/multipart/complete', { path: init.path, uploadId: init.uploadId, parts });
  } catch (error) {
    void api.post('/fs/multipart/abort', { path: init.path, uploadId: init.uploadId }).catch(() => undefined);
    if (options.signal.aborted) throw new FsUploadError('cancelled', true);
    throw error instanceof Error ? error : new FsUploadError(String(error));
  }
}

function formUpload(file: Blob, targetPath: string, options: UploadOptions): Promise<void> {
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
