/**
 * Web Worker that encrypts ranges of a file's CNF1 object (`sealRange`), so that reading the file, the
 * per-record Web Crypto calls and the assembly of each part stay off the page's main thread. Started by
 * sealClient.ts. Each range is answered as a File of the origin private file system (sealedParts.ts), whose
 * part file is reused once the page releases it, or where that cannot be written as a Blob of the bytes.
 * Either is what an upload sends best: DevTools, when open (and Playwright, always), copies the bytes of a
 * request body into its log, slowly (30 MiB of ArrayBuffer bodies: 2.3 s against 0.25 s), but never a Blob's.
 */
import { sealedBlob, sealRange, type SealJob } from './seal';
import { openPartFiles, type PartFiles } from './sealedParts';

export interface SealRequest {
  id: number;
  job: SealJob;
  start: number;
  end: number;
}

export type WorkerMessage =
  | SealRequest
  /** The upload is done with the part file `release`. */
  | { release: string }
  /** The worker is about to be stopped: its part files are closed and deleted, then `closed` answered. */
  | { close: true };

export type SealReply =
  /** `name`: the part's file in the origin private file system, to release once sent. */
  | { id: number; blob: Blob; name?: string }
  | { id: number; error: { name: string; message: string } }
  | { closed: true }
  /** A request could not be read here: its range is not coming. */
  | { unreadable: true };

/** The part of the worker global scope used here (the web project is typed with the DOM library). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerMessage>) => void): void;
  addEventListener(type: 'messageerror', listener: () => void): void;
  postMessage(message: SealReply): void;
}

const scope = self as unknown as WorkerScope;
let partFiles: Promise<PartFiles | null> | undefined;

/** Buffers to seal into, one per range being sealed: a part's bytes are copied out (file or Blob) once sealed. */
const buffers: Uint8Array<ArrayBuffer>[] = [];

async function seal({ job, start, end }: SealRequest): Promise<{ blob: Blob; name?: string }> {
  const buffer = buffers.pop();
  const bytes = await sealRange(job, start, end, buffer);
  try {
    const files = await (partFiles ??= openPartFiles());
    if (files) {
      try {
        return await files.write(bytes).then(({ file, name }) => ({ blob: file, name }));
      } catch {
        // Out of quota, or the folder is gone: this part stays in memory.
      }
    }
    return { blob: sealedBlob(bytes) };
  } finally {
    // The buffer given, or the one sealRange made when it was too small.
    buffers.push(new Uint8Array(bytes.buffer));
  }
}

scope.addEventListener('message', ({ data }) => {
  if ('release' in data) {
    void partFiles?.then((files) => files?.release(data.release));
    return;
  }
  if ('close' in data) {
    void (partFiles ?? Promise.resolve(null))
      .then((files) => files?.close())
      .catch(() => undefined)
      .then(() => scope.postMessage({ closed: true }));
    return;
  }
  queue.push(data);
  pump();
});

/**
 * Ranges are sealed in the order asked, two at a time (one is read while the other is encrypted): all at once,
 * the ranges asked ahead delayed the one an upload waits for.
 */
const SEALING = 2;
const queue: SealRequest[] = [];
let running = 0;

function pump(): void {
  while (running < SEALING && queue.length > 0) {
    const request = queue.shift()!;
    const { id } = request;
    running += 1;
    seal(request)
      .then(
        (part) => scope.postMessage({ id, ...part }),
        (error: unknown) =>
          scope.postMessage({
            id,
            error:
              error instanceof Error
                ? { name: error.name, message: error.message }
                : { name: 'Error', message: String(error) },
          }),
      )
      .finally(() => {
        running -= 1;
        pump();
      });
  }
}

scope.addEventListener('messageerror', () => scope.postMessage({ unreadable: true }));
