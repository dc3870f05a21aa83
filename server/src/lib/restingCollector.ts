// Gives memory back once the server comes to rest. V8 collects its old generation only when allocation pushes it
// there; a burst of large answers (PROPFIND or fs listings of a big folder) leaves tens of MB of dead objects and the
// buffers they held, and an idle server allocates nothing more, so they stay resident until the next burst. When
// the event loop has been nearly idle for a whole interval and the heap has grown since the last collection, this
// runs a full collection, then a second one a moment later (the first frees the objects; only the next one gives
// their pages and the buffers they kept back to the system). docs/benchmarks.md (WebDAV) has the RSS before and
// after. Needs node's --expose-gc (serverNodeFlags, the Dockerfile); without it this does nothing.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** What the collector reads: the heap and external memory in bytes, and the event loop's utilisation. */
export interface RestingProbes {
  heapBytes(): number;
  utilization(previous?: EventLoopUtilization): EventLoopUtilization;
  collect(): void;
}

export interface RestingCollectorOptions {
  /** How often the server is looked at; "idle" means idle over this whole interval. */
  intervalMs?: number;
  /** Busy share of the event loop below which the server counts as idle. */
  idleBelow?: number;
  /** Growth of heap + external memory since the last collection that is worth one. */
  growthBytes?: number;
  /** Delay of the second collection. */
  secondAfterMs?: number;
}

const MB = 1024 * 1024;

/** Whether to collect now: idle over the interval, and grown by at least `growthBytes` since the last collection. */
export function restingCollectionDue(
  busyShare: number,
  bytes: number,
  bytesAfterLast: number,
  o: Required<RestingCollectorOptions>,
) {
  return busyShare < o.idleBelow && bytes - bytesAfterLast >= o.growthBytes;
}

function nodeProbes(): RestingProbes | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return undefined;
  return {
    heapBytes: () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.external;
    },
    utilization: (previous) =>
      previous
        ? performance.eventLoopUtilization(performance.eventLoopUtilization(), previous)
        : performance.eventLoopUtilization(),
    collect: gc,
  };
}

/** Starts looking; `stop()` ends it. Returns undefined when collections cannot be asked for (no --expose-gc). */
export function startRestingCollector(
  options: RestingCollectorOptions = {},
  probes: RestingProbes | undefined = nodeProbes(),
): { stop(): void } | undefined {
  if (!probes) return undefined;
  const o: Required<RestingCollectorOptions> = {
    intervalMs: 2000,
    idleBelow: 0.02,
    growthBytes: 16 * MB,
    secondAfterMs: 500,
    ...options,
  };
  let mark = probes.utilization();
  let bytesAfterLast = probes.heapBytes();
  let second: NodeJS.Timeout | undefined;
  const timer = setInterval(() => {
    const busyShare = probes.utilization(mark).utilization;
    mark = probes.utilization();
    if (second || !restingCollectionDue(busyShare, probes.heapBytes(), bytesAfterLast, o)) return;
    probes.collect();
    second = setTimeout(() => {
      second = undefined;
      probes.collect();
      bytesAfterLast = probes.heapBytes();
      // The collections themselves are not the server's work: the next interval starts after them.
      mark = probes.utilization();
    }, o.secondAfterMs);
    second.unref();
  }, o.intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (second) clearTimeout(second);
    },
  };
}
