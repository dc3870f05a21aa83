// Dashboard benchmark: GET /api/admin/dashboard/stats?fresh=1 (recomputed on every call, no cache) over
// 100,000 pastes and 20,000 file rows, beside GET /api/health measured in the same run (issue 7: "fast on
// 100,000 pastes"). Also times, on the same database file, the full-scan statements the dashboard used
// before the trigger-maintained counters, for comparison.
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { machineLine, writeSection } from './lib/report.mjs';
import { repoRoot, startServer } from './lib/server.mjs';
import { clientThreads, pinningLine, serverCpus } from './lib/cpus.mjs';
import { wrk as runWrk } from './lib/wrk.mjs';

const require = createRequire(path.join(repoRoot, 'server', 'package.json'));
const SQLite = require('better-sqlite3');

const PASTES = Number(process.env.BENCH_PASTES ?? 100_000);
const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 300);
const DURATION = process.env.BENCH_DURATION ?? '5s';
const CONNECTIONS = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DAY = 86_400_000;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const median = (values) => percentile(values, 50);

/**
 * Rows straight into the server's SQLite file (WAL: the running server keeps serving), in one
 * transaction. The counter triggers fire exactly as for rows the API creates. All pastes fall in the
 * charted week, the worst case for anything that reads that week's rows.
 */
function seed(dataDir) {
  const db = new SQLite(path.join(dataDir, 'clipnest.db'));
  db.pragma('busy_timeout = 10000');
  const local = db.prepare("select id from storage_configs where storage_type = 'local'").get().id;
  const now = Date.now();
  const at = (i, n) => new Date(now - 7 * DAY + ((i + 1) * 7 * DAY) / (n + 1)).toISOString();
  const paste = db.prepare(`insert into pastes (id, slug, content, type, remark, password_hash, expires_at,
    max_views, views, created_by, created_at, updated_at) values (?, ?, ?, 'markdown', '', null, null, 0, ?, ?, ?, ?)`);
  const file = db.prepare(`insert into files (id, slug, filename, mimetype, size, storage_config_id, storage_path,
    etag, remark, password_hash, expires_at, max_views, views, use_proxy, created_by, created_at, updated_at)
    values (?, ?, ?, 'application/octet-stream', ?, ?, ?, null, '', null, null, 0, 0, 1, 'admin', ?, ?)`);
  const started = performance.now();
  db.transaction(() => {
    for (let i = 0; i < PASTES; i++) {
      const created = at(i, PASTES);
      const content = `# Paste ${i}\n\n${'Some **markdown** text. '.repeat(8)}`;
      paste.run(`bp${i}`, `bench-p-${i}`, content, i % 7, i % 2 ? 'admin' : 'apikey:k1', created, created);
    }
    for (let i = 0; i < FILES; i++) {
      const created = at(i, FILES);
      file.run(
        `bf${i}`,
        `bench-f-${i}`,
        `file-${i}.bin`,
        1000 + (i % 5000),
        local,
        `bench/file-${i}.bin`,
        created,
        created,
      );
    }
  })();
  const seedMs = performance.now() - started;
  return { db, seedMs };
}

/** The dashboard's statements before the counters (COUNT(*), per-day range, SUM per config), timed here. */
function oldStatements(db, since) {
  const statements = {
    'COUNT(*) per table (pastes, files, api_keys, storage_configs)': () => {
      for (const t of ['pastes', 'files', 'api_keys', 'storage_configs']) db.prepare(`select count(*) from ${t}`).get();
    },
    'pastes + files created per day over the week (range on created_at)': () => {
      for (const t of ['pastes', 'files']) {
        db.prepare(
          `select substr(created_at, 1, 10) as day, count(*) from ${t} where created_at >= ? group by substr(created_at, 1, 10)`,
        ).all(since);
      }
    },
    'SUM(size), COUNT(*) from files GROUP BY storage_config_id': () => {
      db.prepare('select storage_config_id, sum(size), count(*) from files group by storage_config_id').all();
    },
  };
  const result = [];
  for (const [name, fn] of Object.entries(statements)) {
    const times = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      fn();
      times.push(performance.now() - t0);
    }
    result.push({ name, p50: median(times), p99: percentile(times, 99) });
  }
  return result;
}

async function timed(url, headers) {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
  return performance.now() - t0;
}

/** wrk at this bench's connections and duration, with the admin token when given. */
const wrk = (url, token) =>
  runWrk(url, {
    connections: CONNECTIONS,
    duration: DURATION,
    headers: token ? [`Authorization: Bearer ${token}`] : [],
  });

const loadBefore = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');
const server = await startServer({ cpus: serverCpus });
try {
  const token = await server.login();
  const auth = { authorization: `Bearer ${token}` };
  const { db, seedMs } = seed(server.dataDir);
  const since = new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10);
  const before = oldStatements(db, `${since}T00:00:00.000Z`);
  db.close();
  // The synchronous seed kept this event loop busy: let it see the keep-alive socket the server
  // closed meanwhile, or the next fetch reuses it and fails with "other side closed".
  await new Promise((resolve) => setTimeout(resolve, 200));

  const dashboardUrl = `${server.url}/api/admin/dashboard/stats?fresh=1`;
  const check = await (await fetch(dashboardUrl, { headers: auth })).json();
  const shown = check.data.counts;
  if (shown.pastes !== PASTES || shown.files !== FILES) {
    throw new Error(`dashboard shows ${JSON.stringify(shown)}, expected ${PASTES} pastes and ${FILES} files`);
  }
  const createdInWeek = check.data.daily.reduce((n, d) => n + d.pastes_created, 0);

  // Warm up, then alternate one request of each so that outside load hits both alike.
  for (let i = 0; i < 30; i++) {
    await timed(`${server.url}/api/health`);
    await timed(dashboardUrl, auth);
  }
  const health = [];
  const dashboard = [];
  const cached = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    health.push(await timed(`${server.url}/api/health`));
    dashboard.push(await timed(dashboardUrl, auth));
    cached.push(await timed(`${server.url}/api/admin/dashboard/stats`, auth));
  }

  const healthRuns = [];
  const dashboardRuns = [];
  for (let round = 0; round < ROUNDS; round++) {
    healthRuns.push(await wrk(`${server.url}/api/health`));
    dashboardRuns.push(await wrk(dashboardUrl, token));
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const wrkRow = (name, runs) =>
    `| ${name} | ${pick(runs, 'rps').toFixed(0)} | ${pick(runs, 'p50').toFixed(2)} | ${pick(runs, 'p99').toFixed(2)} | ${runs.reduce((n, r) => n + r.non2xx, 0)} |`;
  const seqRow = (name, times) =>
    `| ${name} | ${median(times).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${times.length} |`;
  const ratio = median(dashboard) / median(health);

  const markdown = `## Dashboard (SQLite, ${PASTES.toLocaleString('en')} pastes)

${machineLine()}, load average ${loadBefore} before the run. One server process (the bundle \`npm start\` runs, SQLite in WAL mode; ${pinningLine()}) with
${PASTES.toLocaleString('en')} pastes and ${FILES.toLocaleString('en')} file rows written straight into its database file in one
transaction (${(seedMs / 1000).toFixed(1)} s, counter triggers included), all created within the charted week
(${createdInWeek.toLocaleString('en')} of them on the 7 charted UTC days). \`GET /api/admin/dashboard/stats?fresh=1\` recomputes
everything on every call (no cache): counters by primary key, the storage config list, and
\`ORDER BY created_at DESC LIMIT 8\` for recent activity.

One client, one request at a time, health / fresh dashboard / cached dashboard alternating, ${SEQUENTIAL} each:

| Endpoint | p50 ms | p99 ms | requests |
|---|---:|---:|---:|
${seqRow('GET /api/health (baseline)', health)}
${seqRow('GET /api/admin/dashboard/stats?fresh=1', dashboard)}
${seqRow('GET /api/admin/dashboard/stats (15 s cache)', cached)}

Fresh dashboard p50 = ${ratio.toFixed(1)} × health p50.

wrk -t${clientThreads} -c${CONNECTIONS} -d${DURATION} --latency, health and fresh dashboard alternating ${ROUNDS} times (medians):

| Endpoint | req/s | p50 ms | p99 ms | non-2xx |
|---|---:|---:|---:|---:|
${wrkRow('GET /api/health (baseline)', healthRuns)}
${wrkRow('GET /api/admin/dashboard/stats?fresh=1', dashboardRuns)}

For comparison, the statements the dashboard ran before the counters, on the same database file
(better-sqlite3 in the benchmark process, 30 runs each):

| Statement (before) | p50 ms | p99 ms |
|---|---:|---:|
${before.map((b) => `| ${b.name} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} |`).join('\n')}
`;
  writeSection('dashboard', markdown);
  console.log(markdown);
} finally {
  await server.stop();
}
