import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleProgress } from './progressThrottle';
import type { UploadProgress, UploadStage } from './types';

const at = (stage: UploadStage, loaded: number): UploadProgress => ({
  stage,
  loaded,
  total: 100,
  speed: null,
  etaSeconds: null,
});

describe('throttleProgress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes a new stage at once and the latest bytes at most once per interval', () => {
    const seen: UploadProgress[] = [];
    const throttle = throttleProgress(
      (p) => seen.push(p),
      250,
      () => Date.now(),
    );
    throttle.report(at('starting', 0));
    throttle.report(at('uploading', 1));
    for (let loaded = 2; loaded <= 10; loaded++) throttle.report(at('uploading', loaded));
    expect(seen.map((p) => [p.stage, p.loaded])).toEqual([
      ['starting', 0],
      ['uploading', 1],
    ]);
    vi.advanceTimersByTime(250);
    expect(seen.at(-1)).toMatchObject({ stage: 'uploading', loaded: 10 });
    expect(seen).toHaveLength(3);
    // A report after a quiet interval passes at once.
    vi.advanceTimersByTime(1000);
    throttle.report(at('uploading', 20));
    expect(seen.at(-1)).toMatchObject({ loaded: 20 });
    // A held report is replaced by a stage change, never sent after it.
    throttle.report(at('uploading', 30));
    throttle.report(at('completed', 100));
    vi.advanceTimersByTime(1000);
    expect(seen.slice(-2).map((p) => [p.stage, p.loaded])).toEqual([
      ['uploading', 20],
      ['completed', 100],
    ]);
  });

  it('drops a held report once cancelled', () => {
    const seen: UploadProgress[] = [];
    const throttle = throttleProgress(
      (p) => seen.push(p),
      250,
      () => Date.now(),
    );
    throttle.report(at('uploading', 1));
    throttle.report(at('uploading', 2));
    throttle.cancel();
    vi.advanceTimersByTime(1000);
    expect(seen.map((p) => p.loaded)).toEqual([1]);
  });
});
