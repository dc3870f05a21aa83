import type { FileView, PresignResult } from '@clipnest/contract';
import { api, isApiError } from '../api';
import i18n from '../i18n';
import { createFormUploader } from './formUploader';
import { shareBody, standsAlone } from './multipartUploader';
import { SpeedMeter } from './speed';
import { UploadError, type Uploader, type UploadResult, type UploadTask } from './types';
import { UploadNetworkError, xhrPut, type PutOptions, type PutResult } from './xhrPut';

export interface PresignedDeps {
  post?: <T>(path: string, body: unknown, signal?: AbortSignal) => Promise<T>;
  put?: (url: string, blob: Blob, options: PutOptions) => Promise<PutResult>;
  /** Used when the storage gives no presigned URL, or the browser cannot reach the bucket (CORS). */
  fallback?: Uploader;
}

/**
 * Direct S3 upload (spec §4): presign → PUT the bytes straight to the bucket → commit. When a step
 * fails after the file id is known the server is told to drop it (POST /s3/cancel), so no half
 * share stays behind. A bucket the browser cannot reach (no CORS rule: the PUT fails without an
 * answer) falls back to the form upload through the server.
 */
export function createPresignedUploader(deps: PresignedDeps = {}): Uploader {
  const post =
    deps.post ?? (<T>(path: string, body: unknown, signal?: AbortSignal) => api.post<T>(path, body, { signal }));
  const put = deps.put ?? xhrPut;
  return {
    kind: 'presigned',
    async upload(task: UploadTask): Promise<UploadResult> {
      const file = task.file;
      const total = file.size;
      const filename = task.filename ?? file.name;
      const meter = new SpeedMeter();
      task.onProgress({ stage: 'starting', loaded: 0, total, speed: null, etaSeconds: null });
      task.onProgress({ stage: 'initializing', loaded: 0, total, speed: null, etaSeconds: null });

      let presign: PresignResult;
      try {
        presign = await post<PresignResult>('/s3/presign', shareBody(task, filename), task.signal);
      } catch (error) {
        if (task.signal.aborted) throw cancelled(task, total);
        const message = error instanceof Error ? error.message : String(error);
        const status = isApiError(error) ? error.status : 0;
        throw new UploadError(standsAlone(error) ? message : i18n.t('errors.presignFailed', { message }), { status });
      }
      const fileId = presign.file_id;
      const drop = () => post('/s3/cancel', { file_id: fileId }).catch(() => undefined);
      if (!presign.upload_url) {
        await drop();
        return (deps.fallback ?? createFormUploader()).upload(task);
      }

      let etag: string | null;
      try {
        meter.add(0, performance.now());
        task.onProgress({ stage: 'uploading', loaded: 0, total, speed: null, etaSeconds: null });
        const result = await put(presign.upload_url, file, {
          headers: { 'Content-Type': presign.contentType },
          signal: task.signal,
          onProgress: (loaded) => {
            meter.add(loaded, performance.now());
            task.onProgress({ stage: 'uploading', loaded, total, speed: meter.speed(), etaSeconds: meter.eta(total) });
          },
        });
        etag = result.etag;
      } catch (error) {
        await drop();
        if (task.signal.aborted || (error instanceof UploadError && error.cancelled)) throw cancelled(task, total);
        // No answer at all: most likely the bucket's CORS blocks browsers. Go through the server.
        if (error instanceof UploadNetworkError) {
          return (deps.fallback ?? createFormUploader()).upload(task);
        }
        throw error;
      }

      task.onProgress({ stage: 'completing', loaded: total, total, speed: meter.speed(), etaSeconds: 0 });
      try {
        const view = await post<FileView>(
          '/s3/commit',
          { file_id: fileId, size: total, ...(etag ? { etag } : {}) },
          task.signal,
        );
        task.onProgress({ stage: 'completed', loaded: total, total, speed: meter.speed(), etaSeconds: 0 });
        return view;
      } catch (error) {
        await drop();
        if (task.signal.aborted) throw cancelled(task, total);
        throw new UploadError(error instanceof Error ? error.message : String(error), {
          status: isApiError(error) ? error.status : 0,
        });
      }
    },
  };
}

function cancelled(task: UploadTask, total: number): UploadError {
  task.onProgress({ stage: 'cancelled', loaded: 0, total, speed: null, etaSeconds: null });
  return new UploadError(i18n.t('errors.upload.cancelled'), { cancelled: true });
}
