// Upload from a URL. Every remote request goes through the SSRF guard (scheme, resolved addresses of
// every redirect hop, pinned connection, timeouts). Two paths:
// - client-side: the browser reads GET /api/url/proxy and uploads through presign/multipart;
// - server-side: POST /api/url/fetch starts a job that streams the body into storage (size limit and
//   quota of POST /api/upload apply); GET /api/url/jobs/{id} reports progress; cancel aborts it. Jobs are
//   tasks of type `download` (tasks table): they survive a restart (failed, retryable) and show in
//   /api/fs/tasks, where they can be cancelled and retried like copy tasks.
import type { IncomingMessage } from 'node:http';
import type {
  FileView,
  TaskStatus,
  TaskType,
  UploadFields,
  UrlFetchJob,
  UrlInfo,
  UrlJobStatus,
} from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { isWellFormedId, newId } from '../../../lib/ids.js';
import type { Logger } from '../../../lib/logger.js';
import type { SsrfGuard } from '../../../net/ssrfGuard.js';
import type { TaskItemRow, TaskRepository, TaskRow } from '../../../repositories/taskRepository.js';
import { hashPassword } from '../../../security/secrets.js';
import { webFromNode } from '../../../storage/streams.js';
import { cleanFilename, tooLargeError } from '../fileShareRules.js';
import type { FileShareService } from '../fileShareService.js';
import type { FileUploadService } from './fileUploadService.js';
import { creatorId, type Principal } from '../../../auth/principal.js';
import type { TaskRunContext, TaskExecutor, TaskService } from '../../fs/tasks/taskService.js';

const MAX_ACTIVE_JOBS_PER_USER = 5;
/** The task type URL fetches run as. */
const TASK_TYPE = 'download' satisfies TaskType;
/** A connection opened by startFetch that no run took within this long is closed. */
const UNCLAIMED_CONNECTION_MS = 60_000;

/** How a task's status reads as a URL job's. */
const JOB_STATUS: Record<TaskStatus, UrlJobStatus> = {
  pending: 'downloading',
  running: 'downloading',
  completed: 'completed',
  failed: 'failed',
  partial: 'failed',
  cancelled: 'cancelled',
};

type Prepared = Awaited<ReturnType<FileUploadService['prepareUpload']>>;

/** What a URL fetch task keeps in `tasks.options_json` (no clear password: its hash). */
interface FetchOptions {
  url: string;
  filename: string;
  /** Content-Length of the first answer; null when the remote sent none. */
  total: number | null;
  passwordHash: string | null;
  fields: Omit<UploadFields, 'password'>;
}

interface PendingConnection {
  response: IncomingMessage;
  prepared: Prepared;
  timer: NodeJS.Timeout;
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

export class UrlUploadService implements TaskExecutor {
  /** Connections startFetch opened, waiting for their task's first run. */
  private readonly connections = new Map<string, PendingConnection>();

  constructor(
    private readonly deps: {
      guard: SsrfGuard;
      files: FileUploadService;
      shares: Pick<FileShareService, 'viewOf'>;
      tasks: TaskService;
      taskRows: TaskRepository;
      logger: Logger;
    },
  ) {
    deps.tasks.register(TASK_TYPE, this);
  }

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

  // ---------- server-side fetch jobs (tasks of type `download`) ----------

  /** Runs the item of a URL fetch task: the remote body streamed into a share whose id is the task's. */
  async runItem(ctx: TaskRunContext, item: TaskItemRow): Promise<{ size: number }> {
    const options = ctx.options as unknown as FetchOptions;
    // The first run takes the connection startFetch opened (refused URLs failed the request itself); a retry,
    // after a cancel, a failure or a restart, connects again through the guard.
    const connection = this.connections.get(item.task_id);
    this.connections.delete(item.task_id);
    if (connection) clearTimeout(connection.timer);
    let response: IncomingMessage;
    let prepared: Prepared;
    if (connection) {
      ({ response, prepared } = connection);
      if (ctx.signal.aborted) response.destroy();
      else ctx.signal.addEventListener('abort', () => response.destroy(), { once: true });
    } else {
      const opened = await this.deps.guard.request(options.url, { method: 'GET', signal: ctx.signal });
      response = opened.response;
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.destroy();
        throw remoteStatusError(status);
      }
      try {
        prepared = await this.deps.files.prepareUpload(options.fields, contentLengthOf(response) ?? undefined);
      } catch (error) {
        response.destroy();
        throw error;
      }
    }
    const meter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctrl) {
        ctx.onBytes(chunk.byteLength);
        ctrl.enqueue(chunk);
      },
    });
    try {
      const file = await this.deps.files.upload(
        ctx.principal,
        options.fields,
        webFromNode(response).pipeThrough(meter),
        {
          filename: options.filename,
          partMimetype: options.fields.mimetype,
          signal: ctx.signal,
          id: item.task_id,
          passwordHash: options.passwordHash,
        },
        prepared,
      );
      return { size: file.size };
    } catch (error) {
      if (!(error instanceof AppError) && !ctx.signal.aborted) {
        this.deps.logger.error(`URL fetch ${item.task_id} failed`, error);
      }
      if (error instanceof AppError || ctx.signal.aborted) throw error;
      throw new Error(`download failed: ${(error as Error).message}`, { cause: error });
    } finally {
      response.destroy();
    }
  }

  private async view(row: TaskRow): Promise<UrlFetchJob> {
    const options = JSON.parse(row.options_json) as FetchOptions;
    const status = JOB_STATUS[row.status as TaskStatus];
    let file: FileView | undefined;
    if (status === 'completed') file = await this.deps.shares.viewOf(row.id).catch(() => undefined);
    let error: string | undefined;
    if (status === 'cancelled') error = 'download cancelled';
    if (status === 'failed') {
      const [item] = await this.deps.taskRows.items(row.id);
      error = item?.error ?? row.error ?? 'download failed';
    }
    const total = options.total;
    return {
      job_id: row.id,
      file_id: row.id,
      url: options.url,
      filename: options.filename,
      status,
      received: row.bytes_done,
      total,
      progress: total ? Math.min(100, Math.floor((row.bytes_done / total) * 100)) : status === 'completed' ? 100 : null,
      ...(file ? { file } : {}),
      ...(error ? { error } : {}),
      created_at: row.created_at,
    };
  }

  /**
   * Connects (guard, status, length) before answering, so refused URLs fail the request itself; the body
   * then streams into storage as a task (tasks table, type `download`): progress, cancel and retry through
   * /api/url/jobs and /api/fs/tasks alike, and a restart leaves it failed and retryable.
   */
  async startFetch(
    principal: Principal,
    input: UploadFields & { url: string; filename?: string },
  ): Promise<UrlFetchJob> {
    const createdBy = creatorId(principal);
    if ((await this.deps.taskRows.countActive(createdBy, TASK_TYPE)) >= MAX_ACTIVE_JOBS_PER_USER) {
      throw new AppError('RATE_LIMITED', `at most ${MAX_ACTIVE_JOBS_PER_USER} URL downloads at a time`);
    }
    const { response, url } = await this.deps.guard.request(input.url, { method: 'GET' });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.destroy();
      throw remoteStatusError(status);
    }
    const total = contentLengthOf(response);
    let filename: string;
    let prepared: Prepared;
    let passwordHash: string | null;
    try {
      filename = input.filename
        ? cleanFilename(input.filename)
        : filenameFrom(url, response.headers['content-disposition']);
      prepared = await this.deps.files.prepareUpload(input, total ?? undefined);
      passwordHash = input.password ? await hashPassword(input.password) : null;
    } catch (error) {
      response.destroy();
      throw error;
    }
    const { password: _password, ...fields } = input;
    const options: FetchOptions = {
      url: input.url,
      filename,
      total,
      passwordHash,
      fields: { ...fields, mimetype: input.mimetype || mimeOf(response) },
    };
    const id = newId();
    // Handed to the task's first run; dropped if the run never takes it.
    const timer = setTimeout(() => {
      if (this.connections.get(id)?.response === response) this.connections.delete(id);
      response.destroy();
    }, UNCLAIMED_CONNECTION_MS);
    timer.unref();
    this.connections.set(id, { response, prepared, timer });
    try {
      await this.deps.tasks.create(principal, {
        id,
        type: TASK_TYPE,
        name: `fetch ${filename}`,
        options: options as unknown as Record<string, unknown>,
        items: [{ source: input.url, target: filename, isDir: false, size: total ?? 0 }],
      });
    } catch (error) {
      this.connections.delete(id);
      clearTimeout(timer);
      response.destroy();
      throw error;
    }
    const row = await this.deps.taskRows.find(id);
    if (!row) throw AppError.notFound('URL download not found');
    // Answered as started, whatever the first bytes did meanwhile (the shape the client polls from).
    return { ...(await this.view(row)), status: 'downloading', received: 0, progress: total ? 0 : null };
  }

  private async requireJob(principal: Principal, id: string): Promise<TaskRow | undefined> {
    const row = isWellFormedId(id) ? await this.deps.taskRows.find(id) : undefined;
    if (!row || row.type !== TASK_TYPE) return undefined;
    if (principal.type !== 'admin' && row.created_by !== creatorId(principal)) {
      throw AppError.forbidden('you can only manage uploads you started');
    }
    return row;
  }

  async getJob(principal: Principal, id: string): Promise<UrlFetchJob> {
    const row = await this.requireJob(principal, id);
    if (!row)
      throw AppError.notFound('URL download not found (finished ones are listed in /api/fs/tasks until cleared)');
    return this.view(row);
  }

  /** Cancels a running job; answers undefined when there is no job with this id. */
  async cancelJob(principal: Principal, id: string): Promise<UrlFetchJob | undefined> {
    const row = await this.requireJob(principal, id);
    if (!row) return undefined;
    if (row.status === 'pending' || row.status === 'running') {
      try {
        await this.deps.tasks.cancel(principal, id);
      } catch (error) {
        // Finished meanwhile: answer how it ended.
        if (!(error instanceof AppError && error.kind === 'CONFLICT')) throw error;
      }
    }
    const latest = await this.deps.taskRows.find(id);
    return this.view(latest ?? row);
  }

  /** Drops connections no run took (server shutdown); the runs themselves stop with the task service. */
  close(): void {
    for (const connection of this.connections.values()) {
      clearTimeout(connection.timer);
      connection.response.destroy();
    }
    this.connections.clear();
  }
}
