import { E2EE_FILE_PLACEHOLDER_NAME } from '@clipnest/contract/e2ee';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  chooseUploader,
  FINAL_STAGES,
  slugForIndex,
  throttleProgress,
  UploadError,
  type ShareOptions,
  type UploadResult,
  type UploadSource,
  type UploadStage,
  type UploadTarget,
} from '../../lib/uploader';

export type QueueStage = 'pending' | UploadStage;

export interface QueueItem {
  id: string;
  file: File;
  name: string;
  stage: QueueStage;
  loaded: number;
  total: number;
  speed: number | null;
  etaSeconds: number | null;
  /** Validation problem found before uploading (too large, empty). */
  problem?: string;
  error?: string;
  result?: UploadResult;
  /** Link key of an end-to-end encrypted upload (the share link is `/file/{slug}#{key}`). */
  linkKey?: string;
}

/** End-to-end encryption of an upload: the password becomes part of the key; `resume` reuses a saved key. */
export interface E2eeChoice {
  password?: string;
  resume?: boolean;
}

/** UploadSource.kind of an encrypted upload: its resumable sessions are kept apart from the plain file's. */
export const E2EE_SOURCE_KIND = 'e2ee';

const CONCURRENCY = 2;
let counter = 0;

/** A queue of files: add, remove, start, cancel, retry. Uploads run two at a time. */
export function useUploadQueue({
  validate,
  onDone,
  onError,
  targetOf,
}: {
  validate: (file: File) => string | undefined;
  /** The storage an upload goes to (picks presigned/multipart/form). */
  targetOf?: (options: ShareOptions) => UploadTarget;
  onDone?: (item: QueueItem, result: UploadResult) => void;
  onError?: (item: QueueItem, message: string, status: number) => void;
}) {
  const [items, setItems] = useState<QueueItem[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const callbacks = useRef({ onDone, onError, validate, targetOf });
  useEffect(() => {
    callbacks.current = { onDone, onError, validate, targetOf };
  });

  useEffect(() => {
    const map = controllers.current;
    return () => {
      for (const controller of map.values()) controller.abort();
    };
  }, []);

  const patch = useCallback((id: string, changes: Partial<QueueItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...changes } : item)));
  }, []);

  /** Adds files and answers the new items (to start them at once). */
  const enqueue = useCallback((files: File[]) => {
    const added = files.map<QueueItem>((file) => {
      counter += 1;
      return {
        id: `q${Date.now().toString(36)}${counter}`,
        file,
        name: file.name,
        stage: 'pending',
        loaded: 0,
        total: file.size,
        speed: null,
        etaSeconds: null,
        problem: callbacks.current.validate(file),
      };
    });
    setItems((list) => [...list, ...added]);
    return added;
  }, []);

  const add = useCallback((files: File[]) => enqueue(files).length, [enqueue]);

  const remove = useCallback((id: string) => {
    controllers.current.get(id)?.abort();
    setItems((list) => list.filter((item) => item.id !== id));
  }, []);

  const cancel = useCallback((id: string) => controllers.current.get(id)?.abort(), []);

  const clearFinished = useCallback(() => {
    setItems((list) => list.filter((item) => !FINAL_STAGES.has(item.stage as UploadStage) || item.stage === 'failed'));
  }, []);

  const runOne = useCallback(
    async (item: QueueItem, shareOptions: ShareOptions, e2ee?: E2eeChoice) => {
      const controller = new AbortController();
      controllers.current.set(item.id, controller);
      // Each report re-renders the queue: the bytes reach it a few times a second, stages at once.
      const progress = throttleProgress((p) =>
        patch(item.id, { stage: p.stage, loaded: p.loaded, total: p.total, speed: p.speed, etaSeconds: p.etaSeconds }),
      );
      patch(item.id, { stage: 'starting', error: undefined, loaded: 0, speed: null, etaSeconds: null });
      try {
        let file = item.file;
        let filename = item.name;
        let options = shareOptions;
        let source: UploadSource | undefined;
        if (e2ee) {
          // Encrypted as it uploads (big files: part by part, through the resumable multipart flow).
          const { encryptForUpload } = await import('./encryptUpload');
          const sealed = await encryptForUpload(item.file, item.name, shareOptions, e2ee);
          if (controller.signal.aborted) throw new UploadError('cancelled', { cancelled: true });
          ({ file, options, source } = sealed);
          filename = sealed.source ? E2EE_FILE_PLACEHOLDER_NAME : file.name;
          patch(item.id, { linkKey: sealed.key });
        }
        const uploader = chooseUploader(source ?? file, callbacks.current.targetOf?.(options));
        const result = await uploader.upload({
          file,
          ...(source ? { source } : {}),
          filename,
          options,
          signal: controller.signal,
          onProgress: progress.report,
        });
        patch(item.id, { stage: 'completed', result, loaded: item.total });
        callbacks.current.onDone?.(item, result);
        return { ok: true, status: 201 };
      } catch (error) {
        const cancelled = error instanceof UploadError && error.cancelled;
        const status = error instanceof UploadError ? error.status : 0;
        const message = error instanceof Error ? error.message : String(error);
        patch(item.id, { stage: cancelled ? 'cancelled' : 'failed', error: message, speed: null, etaSeconds: null });
        if (!cancelled) callbacks.current.onError?.(item, message, status);
        return { ok: false, status };
      } finally {
        progress.cancel();
        controllers.current.delete(item.id);
      }
    },
    [patch],
  );

  /** Uploads the given items with the options; a custom slug is numbered per file. Resolves per-item outcomes. */
  const start = useCallback(
    async (targets: QueueItem[], options: ShareOptions, e2ee?: E2eeChoice) => {
      let next = 0;
      const outcomes: { ok: boolean; status: number }[] = [];
      const worker = async () => {
        while (next < targets.length) {
          const index = next;
          next += 1;
          const item = targets[index]!;
          outcomes[index] = await runOne(item, { ...options, slug: slugForIndex(options.slug, index) }, e2ee);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, targets.length) }, worker));
      return outcomes;
    },
    [runOne],
  );

  return { items, add, enqueue, remove, cancel, start, clearFinished };
}
