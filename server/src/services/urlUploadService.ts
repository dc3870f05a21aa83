// Upload from a URL. Every remote request goes through the SSRF guard (scheme, resolved addresses of
// every redirect hop, pinned connection, timeouts). Two paths:
// - client-side: the browser reads GET /api/url/proxy and uploads through presign/multipart;
// - server-side: POST /api/url/fetch starts a job that streams the body into storage (size limit and
//   quota of POST /api/upload apply); GET /api/url/jobs/{id} reports progress; cancel aborts it.
import type { IncomingMessage } from 'node:http';
import type { FileView, UploadFields, UrlFetchJob, UrlInfo } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { Logger } from '../lib/logger.js';
import type { SsrfGuard } from '../net/ssrfGuard.js';
import { webFromNode } from '../storage/streams.js';
import { cleanFilename, tooLargeError } from './fileShareRules.js';
import type { FileUploadService } from './fileUploadService.js';
import { creatorId, type Principal } from './principal.js';

/** Finished jobs are kept this long for GET /api/url/jobs/{id}. */
const JOB_RETENTION_MS = 3600_000;
const MAX_ACTIVE_JOBS_PER_USER = 5;

interface Job extends UrlFetchJob {
  createdBy: string;
  controller: AbortController;
  finishedAt?: number;
}

function contentLengthOf(response: IncomingMessage): number | null {
  const value = response.headers['content-length'];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

function mimeOf(response: IncomingMessage): string {
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : 'application/octet-stream';
}

/** The file name from Content-Disposition (filename* first), else the URL's last path segment. */
export function filenameFrom(url: URL, disposition?: string): string {
  const candidates: string[] = [];
  if (disposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
    if (star?.[1]) {
      try {
        candidates.push(decodeURIComponent(star[1].trim()));
      } catch {
        /* ignore */
      }
    }
    const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
    if (plain) candidates.push((plain[2] ?? plain[1] ?? '').trim());
  }
  const segment = url.pathname.split('/').filter(Boolean).pop();
  if (segment) {
    try {
      candidates.push(decodeURIComponent(segment));
    } catch {
      candidates.push(segment);
    }
  }
  for (const candidate of candidates) {
    try {
      return cleanFilename(candidate);
    } catch {
      /* next */
    }
  }
  return 'download';
}

function remoteStatusError(status: number): AppError {
  return AppError.validation(`could not fetch the URL: the server answered ${status}`, [
    { path: 'url', message: `answered ${status}` },
  ]);
}

export class UrlUploadService {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly deps: { guard: SsrfGuard; files: FileUploadService; clock: Clock; logger: Logger }) {}

  /** Filename, size and type from a HEAD, or a one-byte ranged GET when HEAD is refused. */
  async info(raw: string): Promise<UrlInfo> {
    const { guard } = this.deps;
    const head = await guard.request(raw, { method: 'HEAD' });
    head.response.resume();
    let status = head.response.statusCode ?? 0;
    let size = status < 300 ? contentLengthOf(head.response) : null;
    let mimetype = mimeOf(head.response);
    let disposition = head.response.headers['content-disposition'];
    let finalUrl = head.url;
    let supportsRange = head.response.headers['accept-ranges'] === 'bytes';
    if (status >= 300 || size === null) {
      const ranged = await guard.request(raw, { method: 'GET', headers: { range: 'bytes=0-0' } });
      ranged.response.destroy();
      status = ranged.response.statusCode ?? 0;
      if (status >= 300) throw remoteStatusError(status);
      finalUrl = ranged.url;
      mimetype = mimeOf(ranged.response);
      disposition = ranged.response.headers['content-disposition'] ?? disposition;
      if (status === 206) {
        supportsRange = true;
        const total = /\/(\d+)\s*$/.exec(ranged.response.headers['content-range'] ?? '');
        size = total?.[1] ? Number(total[1]) : null;
      } else {
        size = contentLengthOf(ranged.response);
      }
    }
    return {
      url: raw,
      final_url: finalUrl.href,
      filename: filenameFrom(finalUrl, disposition),
      size,
      mimetype,
      supports_range: supportsRange,
    };
  }

  /** The remote body for the browser (client-side path), refused early when it cannot fit. */
  async proxy(raw: string, signal?: AbortSignal) {
    const maxBytes = await this.deps.files.maxUploadSize();
    const { response, url } = await this.deps.guard.request(raw, { method: 'GET', signal });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.destroy();
      throw remoteStatusError(status);
    }
    const length = contentLengthOf(response);
    if (length !== null && length > maxBytes) {
      response.destroy();
      throw tooLargeError(maxBytes);
    }
    let counted = 0;
    const limited = webFromNode(response).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          counted += chunk.byteLength;
          if (counted > maxBytes) {
            response.destroy();
            controller.error(new Error('file exceeds the maximum upload size'));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return {
      body: limited,
      length,
      mimetype: mimeOf(response),
      filename: filenameFrom(url, response.headers['content-disposition']),
    };
  }

  // ---------- server-side fetch jobs ----------

  private prune(): void {
    const now = Date.now();
    for (const [id, job] of this.jobs) {
      if (job.finishedAt !== undefined && now - job.finishedAt > JOB_RETENTION_MS) this.jobs.delete(id);
    }
  }

  private view(job: Job): UrlFetchJob {
    return {
      job_id: job.job_id,
      file_id: job.file_id,
      url: job.url,
      filename: job.filename,
      status: job.status,
      received: job.received,
      total: job.total,
      progress: job.total
        ? Math.min(100, Math.floor((job.received / job.total) * 100))
        : job.status === 'completed'
          ? 100
          : null,
      ...(job.file ? { file: job.file } : {}),
      ...(job.error ? { error: job.error } : {}),
      created_at: job.created_at,
    };
  }

  /**
   * Connects (guard, status, length) before answering, so refused URLs fail the request itself;
   * the body then streams into storage in the background.
   */
  async startFetch(
    principal: Principal,
    input: UploadFields & { url: string; filename?: string },
  ): Promise<UrlFetchJob> {
    this.prune();
    const createdBy = creatorId(principal);
    const active = [...this.jobs.values()].filter((j) => j.createdBy === createdBy && j.status === 'downloading');
    if (active.length >= MAX_ACTIVE_JOBS_PER_USER) {
      throw new AppError('RATE_LIMITED', `at most ${MAX_ACTIVE_JOBS_PER_USER} URL downloads at a time`);
    }
    const controller = new AbortController();
    const { response, url } = await this.deps.guard.request(input.url, { method: 'GET', signal: controller.signal });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.destroy();
      throw remoteStatusError(status);
    }
    const total = contentLengthOf(response);
    const filename = input.filename
      ? cleanFilename(input.filename)
      : filenameFrom(url, response.headers['content-disposition']);
    let prepared: Awaited<ReturnType<FileUploadService['prepareUpload']>>;
    try {
      prepared = await this.deps.files.prepareUpload(input, total ?? undefined);
    } catch (error) {
      response.destroy();
      throw error;
    }
    const id = newId();
    const job: Job = {
      job_id: id,
      file_id: id,
      url: input.url,
      filename,
      status: 'downloading',
      received: 0,
      total,
      progress: total ? 0 : null,
      created_at: this.deps.clock.now().toISOString(),
      createdBy,
      controller,
    };
    this.jobs.set(id, job);
    const meter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctrl) {
        job.received += chunk.byteLength;
        ctrl.enqueue(chunk);
      },
    });
    const body = webFromNode(response).pipeThrough(meter);
    const mimetype = input.mimetype || mimeOf(response);
    void this.deps.files
      .upload(
        principal,
        { ...input, mimetype },
        body,
        { filename, partMimetype: mimetype, signal: controller.signal },
        prepared,
      )
      .then(
        (file: FileView) => {
          job.file = file;
          job.status = controller.signal.aborted ? 'cancelled' : 'completed';
        },
        (error: unknown) => {
          if (controller.signal.aborted) {
            job.status = 'cancelled';
            job.error = 'download cancelled';
          } else {
            job.status = 'failed';
            job.error = error instanceof AppError ? error.message : `download failed: ${(error as Error).message}`;
            if (!(error instanceof AppError)) this.deps.logger.error(`URL fetch ${id} failed`, error);
          }
        },
      )
      .finally(() => {
        job.finishedAt = Date.now();
        response.destroy();
      });
    return this.view(job);
  }

  private requireJob(principal: Principal, id: string): Job | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (principal.type !== 'admin' && job.createdBy !== creatorId(principal)) {
      throw AppError.forbidden('you can only manage uploads you started');
    }
    return job;
  }

  getJob(principal: Principal, id: string): UrlFetchJob {
    const job = this.requireJob(principal, id);
    if (!job) throw AppError.notFound('URL download not found (finished jobs are kept for an hour)');
    return this.view(job);
  }

  /** Cancels a running job; answers undefined when there is no job with this id. */
  cancelJob(principal: Principal, id: string): UrlFetchJob | undefined {
    const job = this.requireJob(principal, id);
    if (!job) return undefined;
    if (job.status === 'downloading') {
      job.status = 'cancelled';
      job.error = 'download cancelled';
      job.controller.abort();
    }
    return this.view(job);
  }

  /** Stops every running job (server shutdown). */
  close(): void {
    for (const job of this.jobs.values()) if (job.status === 'downloading') job.controller.abort();
  }
}
