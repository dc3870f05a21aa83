import type { UploadProgress } from './types';

/** How often an upload's byte count reaches the page at most (every report re-renders its queue). */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressThrottle {
  report(progress: UploadProgress): void;
  /** Drops a held report (the upload has ended: nothing may overwrite its final state). */
  cancel(): void;
}

/**
 * Passes upload progress on at most once per `intervalMs` while the stage stays the same (the latest figures,
 * after the interval); a new stage passes at once. Uploaders report on every XHR progress event, dozens a
 * second with parts in parallel, and each one would re-render the page.
 */
export function throttleProgress(
  apply: (progress: UploadProgress) => void,
  intervalMs = PROGRESS_INTERVAL_MS,
  now: () => number = () => performance.now(),
): ProgressThrottle {
  let last: UploadProgress | null = null;
  let lastAt = -Infinity;
  let held: UploadProgress | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const pass = (progress: UploadProgress) => {
    clearTimeout(timer);
    timer = undefined;
    held = null;
    last = progress;
    lastAt = now();
    apply(progress);
  };

  return {
    report(progress) {
      if (last === null || progress.stage !== last.stage || now() - lastAt >= intervalMs) {
        pass(progress);
        return;
      }
      held = progress;
      timer ??= setTimeout(() => held && pass(held), Math.max(0, lastAt + intervalMs - now()));
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      held = null;
    },
  };
}
