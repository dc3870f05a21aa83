// A worker thread that asks for one big listing again and again until told to stop (dav-stall bench): PROPFIND
// Depth 1 of a WebDAV folder, or GET /api/fs/list of the same folder. It runs on its own event loop: reading a 75 MB
// answer never delays the probes that the main thread times (decoding it as one string there held the bench's own
// loop for ~0.5 s a listing, counted as server latency). The answer is read as a stream; only its start (a known
// member) and its end (`close`) are checked.
import { parentPort, workerData } from 'node:worker_threads';

const { url, method, headers, status, member, close } = workerData;
const HEAD_BYTES = 256 * 1024;

let stop = false;
parentPort.on('message', (message) => {
  if (message === 'stop') stop = true;
});

async function listOnce() {
  const res = await fetch(url, { method, headers });
  let head = '';
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    if (head.length < HEAD_BYTES) head += decoder.decode(chunk, { stream: true });
    tail = (tail + Buffer.from(chunk.subarray(-64)).toString('latin1')).slice(-64);
  }
  if (res.status !== status || !head.includes(member) || !tail.trimEnd().endsWith(close)) {
    throw new Error(`${method} ${url}: ${res.status}, member ${head.includes(member)}, end ${JSON.stringify(tail)}`);
  }
}

const durations = [];
while (!stop) {
  const started = performance.now();
  await listOnce();
  durations.push(performance.now() - started);
}
parentPort.postMessage({ durations });
