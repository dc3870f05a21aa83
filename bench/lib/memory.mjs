// Peak RSS of a process during one operation (Linux /proc), for the "memory stays flat" checks.
import { readFileSync, writeFileSync } from 'node:fs';

export function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

/** Tracks the peak RSS of a process during one transfer. */
export function monitor(pid) {
  let resetOk = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
    resetOk = true;
  } catch {
    // not permitted: polling alone
  }
  const start = procStatus(pid).rss;
  let peak = start;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, procStatus(pid).rss);
    } catch {
      // exited
    }
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      let hwm = 0;
      try {
        const s = procStatus(pid);
        peak = Math.max(peak, s.rss);
        hwm = resetOk ? s.hwm : 0;
      } catch {
        // exited
      }
      return { startRss: start, peakRss: Math.max(peak, hwm) };
    },
  };
}

/**
 * A process's RSS at rest: the lowest reading over `seconds` without requests. Read right after a burst it is
 * the heap's high-water mark, which V8 gives back once the process idles; what is still held after that stays.
 */
export async function restingRss(pid, seconds = 10) {
  let lowest = procStatus(pid).rss;
  for (let i = 0; i < seconds * 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    lowest = Math.min(lowest, procStatus(pid).rss);
  }
  return lowest;
}
