/**
 * Seals ranges of a file's CNF1 object in a Web Worker (sealWorker.ts), one worker for the page, started on
 * the first range and stopped once idle (no range asked for and none held), after deleting its part files.
 * Where a worker cannot run (no Worker, the script fails to load), the same `sealRange` runs on this thread
 * instead: the bytes are the same either way. `releaseSealed` frees a range once its upload is done with it.
 */
import { sealedBlob, sealRange, type SealJob } from './seal';
import type { SealReply, SealRequest, WorkerMessage } from './sealWorker';

/** An idle worker is stopped after this long. */
const IDLE_MS = 15_000;
/** A stopping worker that has not deleted its part files by then is stopped anyway (they are swept later). */
const CLOSE_MS = 5_000;

interface Pending {
  request: SealRequest;
  resolve: (blob: Blob) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let unavailable = false;
let nextId = 1;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
const pending = new Map<number, Pending>();
/** The part files (origin private file system) of the ranges handed out and not released yet. */
const partFiles = new WeakMap<Blob, string>();
const held = new Set<string>();

function sealHere({ request, resolve, reject }: Pending): void {
  sealRange(request.job, request.start, request.end).then((bytes) => resolve(sealedBlob(bytes)), reject);
}

function post(target: Worker, message: WorkerMessage): void {
  target.postMessage(message);
}

/** Stops the worker once it has closed and deleted its part files (a later range starts another). */
function stop(): void {
  clearTimeout(idleTimer);
  const stopping = worker;
  worker = null;
  if (!stopping) return;
  stopping.removeEventListener('message', onReply);
  stopping.removeEventListener('error', giveUp);
  stopping.removeEventListener('messageerror', giveUp);
  const end = () => {
    clearTimeout(timer);
    stopping.terminate();
  };
  const timer = setTimeout(end, CLOSE_MS);
  stopping.addEventListener('message', end);
  try {
    post(stopping, { close: true });
  } catch {
    end();
  }
}

function stopWhenIdle(): void {
  clearTimeout(idleTimer);
  if (pending.size === 0 && held.size === 0) idleTimer = setTimeout(stop, IDLE_MS);
}

/** The worker failed as a whole: the ranges it had are sealed here, and so are all later ones. */
function giveUp(): void {
  unavailable = true;
  clearTimeout(idleTimer);
  worker?.terminate();
  worker = null;
  const left = [...pending.values()];
  pending.clear();
  left.forEach(sealHere);
}

function onReply({ data }: MessageEvent<SealReply>): void {
  if ('unreadable' in data) {
    giveUp();
    return;
  }
  if ('closed' in data) return;
  const entry = pending.get(data.id);
  if (!entry) return;
  pending.delete(data.id);
  if ('blob' in data) {
    if (data.name) {
      partFiles.set(data.blob, data.name);
      held.add(data.name);
    }
    entry.resolve(data.blob);
  } else entry.reject(Object.assign(new Error(data.error.message), { name: data.error.name }));
  stopWhenIdle();
}

function started(): Worker | null {
  if (worker || unavailable) return worker;
  if (typeof Worker === 'undefined') {
    unavailable = true;
    return null;
  }
  try {
    worker = new Worker(new URL('./sealWorker.ts', import.meta.url), { type: 'module', name: 'clipnest-seal' });
  } catch {
    unavailable = true;
    return null;
  }
  worker.addEventListener('message', onReply);
  worker.addEventListener('error', giveUp);
  worker.addEventListener('messageerror', giveUp);
  return worker;
}

/** Bytes [start, end) of the encrypted object of `job`, as `sealRange` makes them, in a Blob. */
export function sealInWorker(job: SealJob, start: number, end: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const entry: Pending = { request: { id: nextId++, job, start, end }, resolve, reject };
    const target = started();
    if (!target) {
      sealHere(entry);
      return;
    }
    clearTimeout(idleTimer);
    pending.set(entry.request.id, entry);
    try {
      post(target, entry.request);
    } catch {
      // Not cloneable here (an old browser's CryptoKey): sealed on this thread.
      pending.delete(entry.request.id);
      stopWhenIdle();
      sealHere(entry);
    }
  });
}

/** The upload is done with a range from `sealInWorker` (sent, or given up): its file, if any, takes another. */
export function releaseSealed(blob: Blob): void {
  const name = partFiles.get(blob);
  if (name === undefined) return;
  partFiles.delete(blob);
  held.delete(name);
  if (worker) post(worker, { release: name });
  stopWhenIdle();
}
