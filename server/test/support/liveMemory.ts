import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * V8 frees dead buffers' memory on a background thread after a collection, and the next collection waits for that
 * sweep to finish: reading straight after one collection can still count buffers it found dead (on Node 24 under
 * load, a 200 MB download through the in-process S3 emulator read 68 MB that way, and 0.3-19 MB on a quiet run).
 */
function live(): number {
  collect();
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/**
 * Watches the memory this process really holds (heap and buffers still reachable after a full collection) while
 * work runs, and answers the peak growth over what was held before.
 *
 * RSS and uncollected totals measure garbage: how much of it waits for the collector depends on V8's heap sizing,
 * which Node 24 sizes differently from Node 20: the same 200 MB upload and download grew RSS by 126-148 MB on Node 24
 * (most of it buffers waiting for collection) while what stayed reachable grew by 15-35 MB on both versions. A copy
 * of a transfer held in memory stays reachable, so it shows here whatever the version. A full collection every
 * `everyMs` (or four times what the last reading took, if longer) costs time: every 100 ms made a 200 MB transfer
 * overrun its 2 minutes on two loaded cores; a copy held for the length of a transfer is still seen.
 */
export async function liveMemoryGrowth(work: () => Promise<void>, everyMs = 500): Promise<number> {
  const before = live();
  let peak = before;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  // The next reading waits at least four times as long as this one took: two full collections of a big test
  // process (Node 24, a loaded CI machine) every half second slowed an SFTP transfer past its timeout.
  const sample = () => {
    const started = performance.now();
    peak = Math.max(peak, live());
    if (!done) timer = setTimeout(sample, Math.max(everyMs, 4 * (performance.now() - started)));
  };
  timer = setTimeout(sample, everyMs);
  try {
    await work();
  } finally {
    done = true;
    clearTimeout(timer);
  }
  return peak - before;
}
