// A worker thread that sends PROPFIND Depth 1 of one URL again and again until told to stop (dav-stall bench).
// It runs on its own event loop: reading a 75 MB answer never delays the probes that the main thread times
// (decoding it as one string there held the bench's own loop for ~0.5 s a listing, counted as server latency).
// The answer is read as a stream; only its start (a known member) and its end (the closing tag) are checked.
import { parentPort, workerData } from 'node:worker_threads';

const { url, auth, member } = workerData;
const HEAD_BYTES = 256 * 1024;
const CLOSE = '</D:multistatus>';

let stop = false;
parentPort.on('message', (message) => {
  if (message === 'stop') stop = true;
});

async function listOnce() {
  const res = await fetch(url, { method: 'PROPFIND', headers: { authorization: auth, depth: '1' } });
  let head = '';
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    if (head.length < HEAD_BYTES) head += decoder.decode(chunk, { stream: true });
    tail = (tail + Buffer.from(chunk.subarray(-64)).toString('latin1')).slice(-64);
  }
  if (res.status !== 207 || !head.includes(member) || !tail.trimEnd().endsWith(CLOSE)) {
    throw new Error(`PROPFIND ${url}: ${res.status}, member ${head.includes(member)}, end ${JSON.stringify(tail)}`);
  }
}

const durations = [];
while (!stop) {
  const started = performance.now();
  await listOnce();
  durations.push(performance.now() - started);
}
parentPort.postMessage({ durations });
