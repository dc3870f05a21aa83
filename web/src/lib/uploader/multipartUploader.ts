import {
  MULTIPART_ATTEMPTS,
  MULTIPART_CONCURRENCY,
  MULTIPART_PART_SIZE,
  MULTIPART_RETRY_DELAY_MS,
  uploadMimetype,
  type FileView,
  type MultipartInitResult,
  type MultipartStatus,
  type SignedPart,
  type SignPartsResult,
} from '@clipnest/contract';
import { api, isApiError } from '../api';
import i18n from '../i18n';
import { shareOptionEntries } from './fields';
import { isStale, resumeKey, resumeStore, type ResumeRecord, type ResumeStore } from './resumeStore';
import { SpeedMeter } from './speed';
import { UploadError, type Uploader, type UploadResult, type UploadTask } from './types';
import { xhrPut, type PutOptions, type PutResult } from './xhrPut';

/** The API calls the multipart client makes (injectable for unit tests). */
export interface MultipartApi {
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  get<T>(path: string, query: Record<string, string>, signal?: AbortSignal): Promise<T>;
}

export interface MultipartDeps {
  api?: MultipartApi;
  put?: (url: string, blob: Blob, options: PutOptions) => Promise<PutResult>;
  store?: ResumeStore;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  concurrency?: number;
  attempts?: number;
  retryDelayMs?: number;
  /** Part size asked for at init (the server may raise it). */
  partSize?: number;
  now?: () => number;
}

const defaultApi: MultipartApi = {
  post: (path, body, signal) => api.post(path, body, { signal }),
  get: (path, query, signal) => api.get(path, { query, signal }),
};

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

const cancelledError = () => new UploadError(i18n.t('errors.upload.cancelled'), { cancelled: true });

/** An API failure as an UploadError (the server's message, already translated by the api client). */
function asUploadError(error: unknown, signal: AbortSignal): UploadError {
  if (signal.aborted) return cancelledError();
  if (error instanceof UploadError) return error;
  if (isApiError(error)) return new UploadError(error.message, { status: error.status });
  return new UploadError(error instanceof Error ? error.message : String(error));
}

/** The JSON fields of presign/init: the share options as the form upload sends them. */
/**
 * Errors whose server message is the whole answer (insufficient storage, over the size limit): shown
 * without the failed step's prefix. Decided on the kind, never on the message text.
 */
export function standsAlone(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'quota_exceeded' || error.kind === 'payload_too_large');
}

export function shareBody(task: UploadTask, filename: string): Record<string, string | number> {
  const body: Record<string, string | number> = {
    filename,
    size: task.source?.size ?? task.file.size,
    mimetype: task.source?.type ?? uploadMimetype(filename, task.file.type),
  };
  for (const [name, value] of shareOptionEntries(task.options)) body[name] = value;
  return body;
}

/**
 * Resumable multipart upload (spec §4 "Multipart upload", "Resume"; §9): parts of 5 MiB, 3 in
 * flight, 3 attempts each with a 1000 ms × attempt pause; each part URL is signed just before its
 * PUT (one call for the first part of every worker) and again on every retry. Presigned parts go
 * straight to the bucket; their ETag is reported with the worker's next sign-parts call (one API
 * call per part), the last ones on their own. On local storage the URLs point at the server, which
 * records the parts itself.
 * The session is kept in IndexedDB until it completes, so a reload can resume: the server lists
 * the parts it has and only the missing ones are sent.
 */
export function createMultipartUploader(deps: MultipartDeps = {}): Uploader {
  const client = deps.api ?? defaultApi;
  const put = deps.put ?? xhrPut;
  const sleep = deps.sleep ?? sleepFor;
  const concurrency = deps.concurrency ?? MULTIPART_CONCURRENCY;
  const attempts = deps.attempts ?? MULTIPART_ATTEMPTS;
  const retryDelayMs = deps.retryDelayMs ?? MULTIPART_RETRY_DELAY_MS;
  const now = deps.now ?? Date.now;

  return {
    kind: 'multipart',
    async upload(task: UploadTask): Promise<UploadResult> {
      const store = deps.store ?? resumeStore();
      const file = task.file;
      const source = task.source;
      const total = source?.size ?? file.size;
      const filename = task.filename ?? file.name;
      const key = resumeKey(file, task.options.s3_config_id ?? '', source?.kind);
      const meter = new SpeedMeter();
      const report = (stage: 'starting' | 'initializing' | 'uploading' | 'completing', loaded: number) =>
        task.onProgress({ stage, loaded, total, speed: meter.speed(), etaSeconds: meter.eta(total) });
      report('starting', 0);

      // Stops in-flight parts on cancel and on a fatal failure of any part.
      const inner = new AbortController();
      const onOuterAbort = () => inner.abort();
      task.signal.addEventListener('abort', onOuterAbort);
      if (task.signal.aborted) inner.abort();
      const signal = inner.signal;

      let record: ResumeRecord | undefined;
      try {
        // ---- resume or init ----
        const done = new Map<number, { etag: string; size: number }>();
        const saved = await store.get(key);
        if (saved && !isStale(saved, now()) && saved.size === total && saved.source?.id === source?.id) {
          try {
            const status = await client.get<MultipartStatus>(
              '/upload/multipart/parts',
              { file_id: saved.file_id },
              signal,
            );
            if (status.size === total) {
              record = { ...saved, part_size: status.part_size, part_count: status.part_count };
              for (const p of status.parts) done.set(p.PartNumber, { etag: p.ETag, size: p.size });
            }
          } catch (error) {
            if (signal.aborted) throw cancelledError();
            // 4xx: the session is gone (completed, aborted, swept): start over. Otherwise fail and keep it.
            if (!(isApiError(error) && error.status >= 400 && error.status < 500)) throw asUploadError(error, signal);
          }
          if (!record) await store.delete(key);
        } else if (saved) {
          await store.delete(key);
        }
        if (!record) {
          report('initializing', 0);
          let init: MultipartInitResult;
          try {
            init = await client.post<MultipartInitResult>(
              '/upload/multipart/init',
              { ...shareBody(task, filename), part_size: deps.partSize ?? MULTIPART_PART_SIZE },
              signal,
            );
          } catch (error) {
            const failure = asUploadError(error, signal);
            if (failure.cancelled) throw failure;
            const message = standsAlone(error)
              ? failure.message
              : `${i18n.t('errors.upload.multipartInitFailed')}: ${failure.message}`;
            throw new UploadError(message, { status: failure.status });
          }
          const at = now();
          record = {
            key,
            name: file.name,
            filename,
            size: total,
            lastModified: file.lastModified,
            s3_config_id: task.options.s3_config_id ?? '',
            file_id: init.file_id,
            upload_id: init.upload_id,
            part_size: init.part_size,
            part_count: init.part_count,
            parts_done: [],
            ...(source
              ? { source: { kind: source.kind, id: source.id, state: source.state, file_size: file.size } }
              : {}),
            created_at: at,
            updated_at: at,
          };
          await store.put(record);
        }
        const session = record;
        const partSize = session.part_size;
        const sizeOf = (n: number) => (n < session.part_count ? partSize : total - partSize * (session.part_count - 1));

        // ---- upload the missing parts ----
        const missing: number[] = [];
        for (let n = 1; n <= session.part_count; n++) if (!done.has(n)) missing.push(n);
        let doneBytes = 0;
        for (const p of done.values()) doneBytes += p.size;
        const inFlight = new Map<number, number>();
        const loadedNow = () => {
          let sum = doneBytes;
          for (const v of inFlight.values()) sum += v;
          return Math.min(total, sum);
        };
        meter.add(loadedNow(), performance.now());
        report('uploading', loadedNow());
        const tick = () => {
          const loaded = loadedNow();
          meter.add(loaded, performance.now());
          report('uploading', loaded);
        };

        let saving = Promise.resolve();
        const markDone = (n: number, etag: string, size: number) => {
          done.set(n, { etag, size });
          inFlight.delete(n);
          doneBytes += size;
          session.parts_done = [...done.keys()].sort((a, b) => a - b);
          session.updated_at = now();
          const snapshot = { ...session };
          saving = saving.then(() => store.put(snapshot));
          tick();
        };

        // ETags of parts PUT to presigned URLs that the server has not recorded yet. They ride on the
        // next sign-parts call, so each part costs one API call: report the part just sent, sign the next.
        const unreported = new Map<number, { etag: string; size: number }>();
        const signedUrls = new Map<number, SignedPart>();
        const sign = async (partNumbers: number[], abortSignal = signal) => {
          const completed = [...unreported].map(([PartNumber, p]) => ({ PartNumber, ETag: p.etag, size: p.size }));
          unreported.clear();
          try {
            const signed = await client.post<SignPartsResult>(
              '/upload/multipart/sign-parts',
              { file_id: session.file_id, part_numbers: partNumbers, ...(completed.length ? { completed } : {}) },
              abortSignal,
            );
            for (const url of signed.urls) signedUrls.set(url.partNumber, url);
          } catch (error) {
            for (const p of completed) {
              if (!unreported.has(p.PartNumber)) unreported.set(p.PartNumber, { etag: p.ETag, size: p.size });
            }
            throw error;
          }
        };
        const takeUrl = (n: number) => {
          const url = signedUrls.get(n);
          signedUrls.delete(n);
          return url;
        };

        // A source's parts are made (encrypted) as they are needed, as many ahead of the next part to send as
        // there are workers: with one ahead, the workers, taking parts in turn, waited 3-4.5 s in all for them
        // in a 6 s encrypted upload of 256 MiB (0.8-1.2 s with three ahead, made in order). At most
        // 2 × workers parts are held at once, each released to the source once sent or given up.
        const made = new Map<number, Promise<Blob>>();
        const partBlob = (n: number): Promise<Blob> => {
          const start = (n - 1) * partSize;
          if (!source) return Promise.resolve(file.slice(start, start + sizeOf(n)));
          let blob = made.get(n);
          if (!blob) {
            blob = source.read(start, start + sizeOf(n));
            blob.catch(() => undefined);
            made.set(n, blob);
          }
          return blob;
        };

        const sendPart = async (n: number) => {
          const blob = await partBlob(n);
          made.delete(n);
          try {
            await sendBlob(n, blob);
          } finally {
            source?.release?.(blob);
          }
        };

        const sendBlob = async (n: number, blob: Blob) => {
          for (let attempt = 1; ; attempt++) {
            if (signal.aborted) throw cancelledError();
            try {
              // Signed just before use (the first try may take the URL signed with the first batch);
              // a retry signs again (the old URL may have expired).
              let target = attempt === 1 ? takeUrl(n) : undefined;
              if (!target) {
                await sign([n]);
                target = takeUrl(n);
              }
              if (!target) throw new UploadError(i18n.t('errors.invalidResponse'));
              inFlight.set(n, 0);
              const result = await put(target.url, blob, {
                auth: target.proxied,
                signal,
                onProgress: (loaded) => {
                  inFlight.set(n, loaded);
                  tick();
                },
              });
              const etag = result.etag?.trim();
              if (!etag) throw new UploadError(i18n.t('errors.upload.noEtag'));
              // Parts through the server (proxied) are recorded by the server itself.
              if (!target.proxied) unreported.set(n, { etag, size: blob.size });
              markDone(n, etag, blob.size);
              return;
            } catch (error) {
              inFlight.delete(n);
              const failure = asUploadError(error, signal);
              if (failure.cancelled) throw failure;
              // 4xx answers from our API (aborted session, forbidden) do not get better with retries.
              const final = isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408;
              if (final || attempt >= attempts) throw failure;
              await sleep(retryDelayMs * attempt, signal);
            }
          }
        };

        /** Reports what is left when there is no next part to sign (complete carries the ETags anyway). */
        const flush = async () => {
          if (unreported.size > 0) await sign([]).catch(() => undefined);
        };

        let next = 0;
        let failure: UploadError | undefined;
        const worker = async () => {
          while (next < missing.length && !failure) {
            const n = missing[next]!;
            next += 1;
            // This part first: a source makes its parts in the order asked.
            if (source)
              for (let k = next - 1; k < Math.min(next + workers, missing.length); k++) void partBlob(missing[k]!);
            try {
              await sendPart(n);
            } catch (error) {
              failure ??= asUploadError(error, signal);
              if (!failure.cancelled) inner.abort();
            }
          }
          // Last parts: report them now, so a reload before complete still finds them on the server.
          if (!failure) await flush();
        };
        const workers = Math.max(1, Math.min(concurrency, missing.length));
        // One call signs the first part of every worker; the failure, if any, shows again per part.
        if (missing.length > 0) await sign(missing.slice(0, workers)).catch(() => undefined);
        if (signal.aborted) throw cancelledError();
        await Promise.all(Array.from({ length: workers }, worker));
        // Parts made ahead and never sent (a failure or a cancel stopped the workers).
        for (const blob of made.values())
          void blob.then(
            (b) => source?.release?.(b),
            () => undefined,
          );
        made.clear();
        await saving;
        if (task.signal.aborted) throw cancelledError();
        if (failure) {
          // The parts that did arrive count for the resume.
          if (unreported.size > 0) await sign([], task.signal).catch(() => undefined);
          const detail = failure.message;
          const generic = i18n.t('errors.upload.somePartsFailed');
          throw new UploadError(detail === generic ? generic : `${generic}: ${detail}`, { status: failure.status });
        }

        // ---- complete ----
        report('completing', total);
        let view: FileView;
        try {
          view = await client.post<FileView>(
            '/upload/multipart/complete',
            {
              file_id: session.file_id,
              upload_id: session.upload_id,
              parts: [...done.entries()]
                .sort((a, b) => a[0] - b[0])
                .map(([PartNumber, p]) => ({ PartNumber, ETag: p.etag })),
            },
            task.signal,
          );
        } catch (error) {
          throw asUploadError(error, task.signal);
        }
        await store.delete(key);
        task.onProgress({ stage: 'completed', loaded: total, total, speed: meter.speed(), etaSeconds: 0 });
        return view;
      } catch (error) {
        const failure = asUploadError(error, task.signal);
        if (failure.cancelled) {
          // The user gave up: abort on the server, forget the session.
          if (record) {
            await client.post('/upload/multipart/abort', { file_id: record.file_id }).catch(() => undefined);
            await store.delete(key);
          }
          task.onProgress({ stage: 'cancelled', loaded: 0, total, speed: null, etaSeconds: null });
        }
        throw failure;
      } finally {
        task.signal.removeEventListener('abort', onOuterAbort);
      }
    },
  };
}
