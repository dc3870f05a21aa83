// Streams that move many buffers (an upload's socket chunks) leave them dead in the young generation, and V8
// only collects when that fills or when a large amount of external memory piles up: one upload grew the process
// by tens of MB of dead chunks. A minor GC every few MB of bytes moved keeps that flat, cheaply
// (docs/benchmarks.md, Figures moved out of the code).
import v8 from 'node:v8';
import vm from 'node:vm';

type Gc = (options?: { type?: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

let gc: Gc | undefined | null;

function collector(): Gc | undefined {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as Gc;
    } catch {
      gc = null;
    }
  }
  return gc ?? undefined;
}

/** How many bytes pass between two minor GCs. */
const EVERY = 4 * 1024 * 1024;

/** Counts bytes a stream moved; runs a minor GC each time another EVERY bytes went through. */
export class YoungGarbage {
  private since = 0;

  add(bytes: number): void {
    this.since += bytes;
    if (this.since < EVERY) return;
    this.since = 0;
    collector()?.({ type: 'minor' });
  }
}
