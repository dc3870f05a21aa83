// Preloaded into a child server by tests that look for leaks (`startChildServer(env, { heapProbe: file })`): on
// SIGUSR2 it collects garbage twice and appends the process's memory use afterwards to `CLIPNEST_HEAP_PROBE` as a
// JSON line. What survives a full collection is what the server holds on to; its RSS also keeps freed pages that
// V8 and malloc have not given back yet, which varies by Node major and by how busy the machine was.
import { appendFileSync } from 'node:fs';

const file = process.env.CLIPNEST_HEAP_PROBE;
const collect = (globalThis as { gc?: () => void }).gc;
if (file && collect) {
  process.on('SIGUSR2', () => {
    collect();
    collect();
    appendFileSync(file, `${JSON.stringify(process.memoryUsage())}\n`);
  });
}
