/**
 * Web Worker that encrypts ranges of a file's CNF1 object (`sealRange`), so that reading the file, the
 * per-record Web Crypto calls and the assembly of each part stay off the page's main thread. Started by
 * sealClient.ts. Each range is answered as a File of the origin private file system (sealedParts.ts), or
 * where that cannot be written as a Blob of the bytes. Either is what an upload sends best: DevTools, when
 * open, copies the bytes of a request body into its log (slowly), but never a Blob's.
 */
import { sealedBlob, sealRange, type SealJob } from './seal';
import { openPartFiles, type PartFiles } from './sealedParts';

export interface SealRequest {
  id: number;
  job: SealJob;
  start: number;
  end: number;
}

export type SealReply =
  /** `name`: the part's file in the origin private file system, to delete once sent. */
  | { id: number; blob: Blob; name?: string }
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
let partFiles: Promise<PartFiles | null> | undefined;

async function seal({ job, start, end }: SealRequest): Promise<{ blob: Blob; name?: string }> {
  const bytes = await sealRange(job, start, end);
  const files = await (partFiles ??= openPartFiles());
  if (files) {
    try {
      const { file, name } = await files.write(bytes);
      return { blob: file, name };
    } catch {
      // Out of quota, or the folder is gone: this part stays in memory.
    }
  }
  return { blob: sealedBlob(bytes) };
}

scope.addEventListener('message', ({ data }) => {
  const { id } = data;
  seal(data).then(
    (part) => scope.postMessage({ id, ...part }),
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
