/**
 * Web Worker that encrypts ranges of a file's CNF1 object (`sealRange`), so that reading the file, the
 * per-record Web Crypto calls and the assembly of each part stay off the page's main thread. Started by
 * sealClient.ts. Each range is answered as a Blob (a handle: its bytes go to the browser's blob storage from
 * here), which is also what an upload sends best: DevTools, when open, copies the bytes of a request body
 * into its log, but never a Blob's.
 */
import { sealedBlob, sealRange, type SealJob } from './seal';

export interface SealRequest {
  id: number;
  job: SealJob;
  start: number;
  end: number;
}

export type SealReply =
  | { id: number; blob: Blob }
  | { id: number; error: { name: string; message: string } }
  /** A request could not be read here: its range is not coming. */
  | { unreadable: true };

/** The part of the worker global scope used here (the web project is typed with the DOM library). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<SealRequest>) => void): void;
  addEventListener(type: 'messageerror', listener: () => void): void;
  postMessage(message: SealReply): void;
}

const scope = self as unknown as WorkerScope;

scope.addEventListener('message', ({ data: { id, job, start, end } }) => {
  sealRange(job, start, end).then(
    (bytes) => scope.postMessage({ id, blob: sealedBlob(bytes) }),
    (error: unknown) =>
      scope.postMessage({
        id,
        error:
          error instanceof Error
            ? { name: error.name, message: error.message }
            : { name: 'Error', message: String(error) },
      }),
  );
});

scope.addEventListener('messageerror', () => scope.postMessage({ unreadable: true }));
