// Pastes against CloudPaste in the same run (issue 43 point 1): health, view and create req/s of Clipnest and of
// CloudPaste's backend, each server alone on the server CPU in turn, both at their default settings and logging
// every request (Clipnest's default LOG_LEVEL=info, CloudPaste's console lines), their logs written to files as
// a container's stdout would be. Targets: views and creates ≥ 3 × CloudPaste; Clipnest's create p99 < 50 ms at
// 64 connections as the server's own access lines time it.
// Opt-in: BENCH_CLOUDPASTE_DIR names an installed CloudPaste backend (bench/README.md says how to make one).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cloudpasteDir, startCloudpaste } from './lib/cloudpaste.mjs';
import { clientThreads, pinningLine, serverCpus } from './lib/cpus.mjs';
import { cpuSeconds } from './lib/proc.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { startServer } from './lib/server.mjs';
import { jsonPostScript, median, medianRun, randomGetScript, wrk } from './lib/wrk.mjs';

const DURATION = process.env.BENCH_DURATION ?? '10s';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 64;
const PASTES = 200;

const dir = cloudpasteDir();
if (!dir) {
  console.error('paste-vs-cloudpaste: set BENCH_CLOUDPASTE_DIR to an installed CloudPaste backend (bench/README.md)');
  process.exit(1);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'clipnest-vs-cloudpaste-'));
const loadBefore = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');
const logOf = (name) => path.join(tmp, `${name}.log`);
const withLog = async (name, start) => {
  const fd = openSync(logOf(name), 'a');
  try {
    return await start(fd);
  } finally {
    closeSync(fd);
  }
};

const content = `# Bench paste\n\n${'Some **markdown** text with a [link](https://example.com).\n'.repeat(20)}`;
const createBody = JSON.stringify({ content: 'benchmark paste\n'.repeat(16), type: 'text', max_views: 0 });
const servers = [];
try {
  // LOG_LEVEL unset: the server's default (info), not startServer's quiet default for other benches.
  const clipnest = await withLog('clipnest', (fd) =>
    startServer({ cpus: serverCpus, env: { LOG_LEVEL: 'info' }, stdout: fd }),
  );
  servers.push({ name: 'Clipnest', server: clipnest });
  const cloudpaste = await withLog('cloudpaste', (fd) => startCloudpaste({ dir, cpus: serverCpus, stdout: fd }));
  servers.push({ name: `CloudPaste ${cloudpaste.version}`, server: cloudpaste });

  for (const entry of servers) {
    const token = await entry.server.login();
    const slugs = [];
    for (let i = 0; i < PASTES; i++) {
      const res = await fetch(`${entry.server.url}/api/paste`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content, type: 'markdown', max_views: 0, remark: `bench ${i}` }),
      });
      const body = await res.json();
      if (res.status !== 201 || !body.data?.slug)
        throw new Error(`${entry.name} create: ${res.status} ${JSON.stringify(body)}`);
      slugs.push(body.data.slug);
    }
    const script = (name, text) => {
      const file = path.join(tmp, `${entry.name.split(' ')[0]}-${name}.lua`);
      writeFileSync(file, text);
      return file;
    };
    entry.viewScript = script('view', randomGetScript('/api/paste/', slugs));
    entry.createScript = script('create', jsonPostScript(createBody, { Authorization: `Bearer ${token}` }));
    entry.runs = { health: [], view: [], create: [] };
    entry.cpu = { view: [], create: [] };
  }

  const load = (entry, kind) => {
    const options = { connections: CONNECTIONS, duration: DURATION };
    if (kind === 'health') return wrk(`${entry.server.url}/api/health`, options);
    const script = kind === 'view' ? entry.viewScript : entry.createScript;
    return wrk(kind === 'view' ? entry.server.url : `${entry.server.url}/api/paste`, { ...options, script });
  };
  // Warm-up (JIT, page caches), not counted: each load once on each server.
  for (const entry of servers) for (const kind of ['health', 'view', 'create']) await load(entry, kind);

  // The servers take turns, the first one alternating by round, so other load on the machine hits both alike.
  // Clipnest's log is cut at each measured create run (its lines are written in batches: a short wait first).
  const logSize = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return statSync(logOf('clipnest')).size;
  };
  const measuredCreates = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...servers].reverse() : servers;
    for (const entry of order) {
      for (const kind of ['health', 'view', 'create']) {
        const logged = entry.server === clipnest && kind === 'create' ? await logSize() : undefined;
        const before = cpuSeconds(entry.server.pid);
        const result = await load(entry, kind);
        if (kind !== 'health') entry.cpu[kind].push(((cpuSeconds(entry.server.pid) - before) / result.requests) * 1e6);
        entry.runs[kind].push(result);
        if (logged !== undefined) measuredCreates.push([logged, await logSize()]);
      }
    }
  }

  // Clipnest's own timing of the measured creates (not the warm-up's): its access lines for POST /api/paste.
  const log = readFileSync(logOf('clipnest'));
  const createMs = measuredCreates
    .flatMap(([from, to]) => log.subarray(from, to).toString('utf8').split('\n'))
    .filter((line) => line.includes('"method":"POST","route":"/api/paste"'))
    .map((line) => JSON.parse(line).ms)
    .sort((a, b) => a - b);
  const quantile = (q) => createMs[Math.min(createMs.length - 1, Math.floor(q * createMs.length))];

  const [ours, theirs] = servers;
  // Per-round ratios: the rps of one run over the rps of another measured minutes apart in the same round.
  const perRound = (kind, a, b, baseKind = kind) => a.runs[kind].map((r, i) => r.rps / b.runs[baseKind][i].rps);
  const ratio = (kind) => median(perRound(kind, ours, theirs));
  const ofHealth = (entry, kind) => median(perRound(kind, entry, entry, 'health'));
  const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const rows = servers.flatMap((entry) =>
    ['health', 'view', 'create'].map((kind) => {
      const r = medianRun(entry.runs[kind]);
      const cpu = entry.cpu[kind] ? `${fmt(median(entry.cpu[kind]))} µs` : '';
      return `| ${entry.name} | ${kind} | ${fmt(r.rps)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${cpu} | ${r.requests} | ${r.non2xx} |`;
    }),
  );
  const viewRatio = ratio('view');
  const createRatio = ratio('create');
  const p99 = quantile(0.99);
  const markdown = `## Pastes against CloudPaste (same run)

${machineLine()}, load average ${loadBefore} before the run. \`npm run bench -w bench -- paste-vs-cloudpaste\` with
BENCH_CLOUDPASTE_DIR set. wrk -t${clientThreads} -c${CONNECTIONS} -d${DURATION} --latency; ${pinningLine()}; the two servers
took turns on the server CPU (${ROUNDS} rounds after a warm-up of each load, the first server alternating by round;
medians shown, requests summed). Both at their defaults, both logging every request to a file: Clipnest the bundle
\`npm start\` runs (SQLite, LOG_LEVEL=info), ${theirs.name} as its Docker image runs it (\`node --expose-gc --import
tsx unified-entry.js\`, NODE_ENV=production, its SQLite). ${PASTES} markdown pastes of ${content.length} characters on each; view =
\`GET /api/paste/{random slug}\`, create = \`POST /api/paste\` with an admin Bearer token and the same
${createBody.length}-byte JSON body on both. CPU = the server process's user + system time per request.

| Server | Load | req/s | p50 ms | p99 ms | CPU | requests | non-2xx |
|---|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

| Target | Result | Met |
|---|---|---|
| views ≥ 3 × CloudPaste (median of per-round ratios) | ${fmt(viewRatio, 2)} × (rounds ${perRound('view', ours, theirs)
    .map((r) => r.toFixed(2))
    .join(', ')}) | ${viewRatio >= 3 ? 'yes' : 'no'} |
| creates ≥ 3 × CloudPaste | ${fmt(createRatio, 2)} × (rounds ${perRound('create', ours, theirs)
    .map((r) => r.toFixed(2))
    .join(', ')}) | ${createRatio >= 3 ? 'yes' : 'no'} |
| create p99 < 50 ms at ${CONNECTIONS} connections, the server's own timing (access lines) | ${fmt(p99, 1)} ms (p50 ${fmt(quantile(0.5), 1)} ms, ${createMs.length} creates) | ${p99 < 50 ? 'yes' : 'no'} |

Creates ÷ health on the same server: Clipnest ${fmt(ofHealth(ours, 'create'), 2)} ×, ${theirs.name} ${fmt(ofHealth(theirs, 'create'), 2)} ×;
views ÷ health: ${fmt(ofHealth(ours, 'view'), 2)} × and ${fmt(ofHealth(theirs, 'view'), 2)} ×.
`;
  writeSection('paste-vs-cloudpaste', markdown);
  console.log(markdown);
} finally {
  for (const { server } of servers) await server.stop();
  rmSync(tmp, { recursive: true, force: true });
}
