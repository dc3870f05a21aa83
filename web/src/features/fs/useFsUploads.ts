import { useEffect, useState, useSyncExternalStore } from 'react';
import { useInvalidateFs } from './api';
import type { PickedFile } from './dropFiles';
import { joinPath } from './paths';
import { FsUploadError, uploadToFs } from './upload';

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'error' | 'cancelled';

export interface FsUploadItem {
  id: number;
  name: string;
  target: string;
  loaded: number;
  total: number;
  speed: number | null;
  status: UploadStatus;
  error?: string;
}

/** Two uploads at a time; the rest wait. */
const CONCURRENCY = 2;

/** The explorer's upload queue (outside React): per-file progress, speed and cancel. */
export class FsUploadQueue {
  private items: FsUploadItem[] = [];
  private readonly jobs = new Map<number, { file: File; controller: AbortController }>();
  private waiting: number[] = [];
  private running = 0;
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private readonly landed = new Set<() => void>();

  /** Called after each file lands (the listing is refreshed then). */
  onLanded = (listener: () => void) => {
    this.landed.add(listener);
    return () => {
      this.landed.delete(listener);
    };
  };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  snapshot = () => this.items;

  private patch(id: number, p: Partial<FsUploadItem>) {
    this.items = this.items.map((it) => (it.id === id ? { ...it, ...p } : it));
    for (const l of this.listeners) l();
  }

  add = (dir: string, files: PickedFile[]) => {
    const added = files.map(({ file, relativePath }): FsUploadItem => {
      const id = this.nextId++;
      this.jobs.set(id, { file, controller: new AbortController() });
      this.waiting.push(id);
      return {
        id,
        name: relativePath,
        target: joinPath(dir, relativePath),
        loaded: 0,
        total: file.size,
        speed: null,
        status: 'queued',
      };
    });
    this.items = [...this.items, ...added];
    for (const l of this.listeners) l();
    this.pump();
  };

  cancel = (id: number) => {
    this.jobs.get(id)?.controller.abort();
    this.waiting = this.waiting.filter((w) => w !== id);
    this.patch(id, { status: 'cancelled' });
  };

  clearFinished = () => {
    this.items = this.items.filter((it) => it.status === 'queued' || it.status === 'uploading');
    for (const l of this.listeners) l();
  };

  private pump() {
    while (this.running < CONCURRENCY && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const job = this.jobs.get(id);
      const item = this.items.find((it) => it.id === id);
      if (!job || !item || job.controller.signal.aborted) continue;
      this.running += 1;
      this.patch(id, { status: 'uploading' });
      uploadToFs(job.file, item.target, {
        signal: job.controller.signal,
        onProgress: (p) => this.patch(id, { loaded: p.loaded, speed: p.speed }),
      })
        .then(() => {
          this.patch(id, { status: 'done' });
          for (const l of this.landed) l();
        })
        .catch((error: unknown) => {
          const cancelled = error instanceof FsUploadError && error.cancelled;
          this.patch(id, cancelled ? { status: 'cancelled' } : { status: 'error', error: (error as Error).message });
        })
        .finally(() => {
          this.running -= 1;
          this.jobs.delete(id);
          this.pump();
        });
    }
  }
}

export function useFsUploads() {
  const [queue] = useState(() => new FsUploadQueue());
  const invalidate = useInvalidateFs();
  useEffect(() => queue.onLanded(() => void invalidate()), [queue, invalidate]);
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot);
  return { items, add: queue.add, cancel: queue.cancel, clearFinished: queue.clearFinished };
}
