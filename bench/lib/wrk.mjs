// wrk on the client CPUs, its output read into numbers, and the medians the benches report over rounds.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { clientThreads, onClientCpus } from './cpus.mjs';

const run = promisify(execFile);

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median of each figure over several wrk runs; counts are summed. */
export function medianRun(runs) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    socketErrors: runs
      .map((r) => r.socketErrors)
      .filter(Boolean)
      .join('; '),
  };
}

function toMs(value, unit) {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/**
 * Runs `wrk --latency` against `url` and returns req/s, p50/p99 in ms, request and error counts, and its output.
 * @param {string} url
 * @param {{ connections: number, duration: string, script?: string, headers?: string[], threads?: number }} options
 *   headers: `Name: value` lines; threads: default one per client CPU, never more than the connections.
 */
export async function wrk(url, { connections, duration, script, headers = [], threads = clientThreads }) {
  const args = [`-t${Math.max(1, Math.min(threads, connections))}`, `-c${connections}`, `-d${duration}`, '--latency'];
  for (const header of headers) args.push('-H', header);
  if (script) args.push('-s', script);
  args.push(url);
  const { stdout } = await run(...onClientCpus('wrk', args), { maxBuffer: 10 * 1024 * 1024 });
  const pct = (p) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(stdout);
    return m ? toMs(m[1], m[2]) : NaN;
  };
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
    p50: pct(50),
    p99: pct(99),
    requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
    socketErrors: /Socket errors: (.*)/.exec(stdout)?.[1] ?? '',
    raw: stdout,
  };
}

/** A wrk Lua script that sends `body` as a JSON POST with these extra headers. */
export function jsonPostScript(body, headers = {}) {
  const lines = ['wrk.method = "POST"', 'wrk.headers["Content-Type"] = "application/json"'];
  for (const [name, value] of Object.entries(headers))
    lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  lines.push(`wrk.body = ${JSON.stringify(body)}`);
  return `${lines.join('\n')}\n`;
}

/** A wrk Lua script that GETs `prefix` + one of `names` at random per request. */
export function randomGetScript(prefix, names) {
  return `local names = {${names.map((s) => JSON.stringify(s)).join(',')}}
math.randomseed(os.time())
request = function()
  return wrk.format("GET", ${JSON.stringify(prefix)} .. names[math.random(#names)])
end
`;
}
