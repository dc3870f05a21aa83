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
 * `everyMs` costs time: every 100 ms made a 200 MB transfer overrun its 2 minutes on two loaded cores; a copy
 * held for the length of a transfer is still seen at every half second.
 */
export async function liveMemoryGrowth(work: () => Promise<void>, everyMs = 500): Promise<number> {
  const before = live();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, live());
  }, everyMs);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return peak - before;
}
