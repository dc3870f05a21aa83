// fs: cross-storage copy, zip downloads and search in the mount tree (issue 18 targets), each beside a
// baseline measured in the same run:
//   - copy:   1 GiB local → s3rver as a copy task   vs `aws s3 cp` of the same file to the same s3rver
//   - zip:    a zip of 1 GiB of files (64 × 16 MiB)  vs the download of one 1 GiB file through JavaScript
//             (LOCAL_SENDFILE=false, GET /api/fs/download)
//   - search: 100,000 indexed names, p50 of GET /api/fs/search (target < 50 ms)
// Memory: the server's peak RSS during each operation (lib/memory.mjs). The client is Node's fetch, the same
// for both rows of a pair.
//
//   npm run bench -w bench -- fs            (BENCH_FS_REPS=3 by default)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, closeSync, writeSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { addMountableLocalConfig } from './lib/api.mjs';
import { monitor } from './lib/memory.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { startS3rver } from './lib/s3rver.mjs';
import { repoRoot, startServer } from './lib/server.mjs';

const MiB = 1024 * 1024;
const REPS = Number(process.env.BENCH_FS_REPS ?? 3);
/** BENCH_FS_PARTS=copy,zip,search (default all) runs only some parts; the report keeps the others' last rows. */
const PARTS = new Set((process.env.BENCH_FS_PARTS ?? 'copy,zip,search').split(','));
const BUCKET = 'clipnest-fs-bench';
const AWS = '/usr/bin/aws';
const work = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-fs-'));
const loadStart = os.loadavg()[0].toFixed(1);

function log(...args) {
  console.log('[fs]', ...args);
}

function writeRandomFile(file, bytes) {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  const chunk = randomBytes(4 * MiB);
  for (let left = bytes; left > 0; left -= chunk.byteLength) writeSync(fd, chunk, 0, Math.min(left, chunk.byteLength));
  closeSync(fd);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mbps = (bytes, ms) => bytes / MiB / (ms / 1000);

async function timed(pid, fn) {
  execFileSync('sync');
  const mon = monitor(pid);
  const start = performance.now();
  const bytes = await fn();
  const ms = performance.now() - start;
  const { startRss, peakRss } = mon.stop();
  return { ms, bytes, startRss, peakRss };
}

async function drain(res) {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  let n = 0;
  for await (const chunk of res.body) n += chunk.byteLength;
  return n;
}

const s3 = await startS3rver({ dir: path.join(work, 's3rver'), bucket: BUCKET });
const server = await startServer({ env: { LOCAL_SENDFILE: 'false', LOG_LEVEL: process.env.BENCH_FS_LOG ?? 'error' } });
try {
  const token = await server.login();
  const api = async (method, url, body) => {
    // After a long synchronous step (file writes, aws cli) let fetch notice keep-alive sockets the server closed.
    await new Promise((r) => setTimeout(r, 20));
    const res = await fetch(server.url + url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!json.success) throw new Error(`${method} ${url}: ${json.code} ${json.message}`);
    return json.data;
  };
  const s3Config = await api('POST', '/api/s3-configs', {
    name: 'bench s3rver',
    provider: 'minio',
    endpoint: s3.endpoint,
    bucket: BUCKET,
    region: 'us-east-1',
    access_key_id: 'S3RVER',
    secret_access_key: 'S3RVER',
    path_style: true,
  });
  const local = await addMountableLocalConfig(server, token);
  const localMount = await api('POST', '/api/mount/create', {
    name: 'local',
    path: '/local',
    storage_config_id: local.id,
    cache_ttl: 0,
  });
  await api('POST', '/api/mount/create', { name: 's3', path: '/s3', storage_config_id: s3Config.id, cache_ttl: 0 });
  const localDisk = local.root;
  log('mounted /local and /s3');

  // ---------- copy ----------
  const big = path.join(localDisk, 'big', '1g.bin');
  if (PARTS.has('copy') || PARTS.has('zip')) writeRandomFile(big, 1024 * MiB);
  const awsEnv = {
    ...process.env,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_REQUEST_CHECKSUM_CALCULATION: 'when_required',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'when_required',
  };
  const copyRows = [];
  for (let rep = 0; PARTS.has('copy') && rep < REPS; rep++) {
    const aws = await timed(s3.pid, async () => {
      execFileSync(
        AWS,
        ['s3', 'cp', big, `s3://${BUCKET}/aws/1g-${rep}.bin`, '--endpoint-url', s3.endpoint, '--only-show-errors'],
        {
          env: awsEnv,
        },
      );
      return 1024 * MiB;
    });
    const task = await timed(server.pid, async () => {
      const { task } = await api('POST', '/api/fs/batch-copy', {
        items: [{ sourcePath: '/local/big/1g.bin', targetPath: `/s3/copy/1g-${rep}.bin` }],
      });
      for (;;) {
        const view = await api('GET', `/api/fs/tasks/${task.id}`);
        if (view.status === 'completed') return view.bytes_done;
        if (!['pending', 'running'].includes(view.status)) throw new Error(`copy task ${view.status}: ${view.error}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    copyRows.push({ aws, task });
    log(
      `copy rep ${rep + 1}: task ${mbps(task.bytes, task.ms).toFixed(0)} MB/s, aws ${mbps(aws.bytes, aws.ms).toFixed(0)} MB/s`,
    );
  }

  // ---------- zip ----------
  for (let i = 0; PARTS.has('zip') && i < 64; i++)
    writeRandomFile(path.join(localDisk, 'zipsrc', `part-${String(i).padStart(2, '0')}.jpg`), 16 * MiB);
  const zipRows = [];
  for (let rep = 0; PARTS.has('zip') && rep < REPS; rep++) {
    const plain = await timed(server.pid, async () =>
      drain(
        await fetch(`${server.url}/api/fs/download?path=/local/big/1g.bin`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      ),
    );
    const zip = await timed(server.pid, async () =>
      drain(
        await fetch(`${server.url}/api/fs/zip`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ paths: ['/local/zipsrc'] }),
        }),
      ),
    );
    zipRows.push({ plain, zip });
    log(
      `zip rep ${rep + 1}: zip ${mbps(zip.bytes, zip.ms).toFixed(0)} MB/s, plain ${mbps(plain.bytes, plain.ms).toFixed(0)} MB/s`,
    );
  }

  // ---------- search ----------
  // 100,000 names straight into the index table (a crawl of 100,000 files would measure the disk, not search).
  const require = createRequire(path.join(repoRoot, 'server', 'package.json'));
  const Database = require('better-sqlite3');
  const db = new Database(path.join(server.dataDir, 'clipnest.db'));
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare(
    'insert into fs_index (id, mount_id, rel_path, parent, name, name_lower, is_dir, size, last_modified, indexed_at) values (?, ?, ?, ?, ?, ?, 0, 1, null, ?)',
  );
  const words = ['report', 'photo', 'invoice', 'backup', 'notes', 'draft', 'video', 'scan', 'budget', 'slides'];
  const now = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < 100_000; i++) {
      const name = `${words[i % words.length]}-${i.toString(36)}-${words[(i * 7) % words.length]}.dat`;
      const rel = `d${i % 100}/s${i % 37}/${name}`;
      insert.run(`bench-${i}`, localMount.id, rel, path.posix.dirname(rel), name, name.toLowerCase(), now);
    }
  })();
  db.close();
  const queries = ['report', 'INVOICE', 'zz9', '-1a', 'notes.dat', 'slides-', 'ph', 'budget-2'];
  const latencies = { global: [], directory: [] };
  for (let round = 0; round < 25; round++) {
    for (const q of queries) {
      for (const scope of ['global', 'directory']) {
        const params = new URLSearchParams({ q, scope, ...(scope === 'directory' ? { path: '/local/d7' } : {}) });
        const start = performance.now();
        await drain(
          await fetch(`${server.url}/api/fs/search?${params}`, { headers: { authorization: `Bearer ${token}` } }),
        );
        latencies[scope].push(performance.now() - start);
      }
    }
  }
  const p = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)];

  // ---------- report ----------
  const copyTask = median(copyRows.map((r) => mbps(r.task.bytes, r.task.ms)));
  const copyAws = median(copyRows.map((r) => mbps(r.aws.bytes, r.aws.ms)));
  const zipRate = median(zipRows.map((r) => mbps(r.zip.bytes, r.zip.ms)));
  const plainRate = median(zipRows.map((r) => mbps(r.plain.bytes, r.plain.ms)));
  const rss = (rows, key) => Math.max(...rows.map((r) => r[key].peakRss - r[key].startRss)) / MiB;
  const peak = (rows, key) => Math.max(...rows.map((r) => r[key].peakRss)) / MiB;
  const md = `## fs: copy tasks, zip downloads, search (\`fs.bench.mjs\`)

${machineLine()}; load average ${loadStart} at the start (a shared machine: rows move a lot between reps); ${REPS} reps,
medians; s3rver on the same machine; server with \`LOCAL_SENDFILE=false\`. The copy's RSS growth is the S3 driver's
multipart buffers ((queueSize + 1) × partSize) and GC slack: bounded, the same for 1 GiB or 100 GiB.

| what | Clipnest | baseline (same run) | ratio | target | server peak RSS (growth) |
| --- | --- | --- | --- | --- | --- |
| copy 1 GiB local → s3rver (copy task) | ${copyTask.toFixed(0)} MB/s | \`aws s3 cp\` ${copyAws.toFixed(0)} MB/s | ${(copyTask / copyAws).toFixed(2)} | ≥ 0.8 | ${peak(copyRows, 'task').toFixed(0)} MB (+${rss(copyRows, 'task').toFixed(0)} MB) |
| zip of 64 × 16 MiB (stored) | ${zipRate.toFixed(0)} MB/s | one 1 GiB download through JS ${plainRate.toFixed(0)} MB/s | ${(zipRate / plainRate).toFixed(2)} | ≥ 0.8 | ${peak(zipRows, 'zip').toFixed(0)} MB (+${rss(zipRows, 'zip').toFixed(0)} MB) |

Search over 100,000 indexed names (${queries.length} queries × 25 rounds per scope, client-side latency of the whole request):

| scope | p50 | p95 | target p50 |
| --- | --- | --- | --- |
| global | ${p(latencies.global, 0.5).toFixed(1)} ms | ${p(latencies.global, 0.95).toFixed(1)} ms | < 50 ms |
| directory (\`/local/d7\`) | ${p(latencies.directory, 0.5).toFixed(1)} ms | ${p(latencies.directory, 0.95).toFixed(1)} ms | < 50 ms |

Copy rows per rep (MB/s task / aws): ${copyRows.map((r) => `${mbps(r.task.bytes, r.task.ms).toFixed(0)} / ${mbps(r.aws.bytes, r.aws.ms).toFixed(0)}`).join(', ')}.
Zip rows per rep (MB/s zip / plain): ${zipRows.map((r) => `${mbps(r.zip.bytes, r.zip.ms).toFixed(0)} / ${mbps(r.plain.bytes, r.plain.ms).toFixed(0)}`).join(', ')}.
`;
  if (PARTS.size === 3) writeSection('fs', md);
  else log('partial run: docs/benchmarks.md left as it was');
  console.log(md);
} finally {
  await server.stop();
  await s3.stop();
  rmSync(work, { recursive: true, force: true });
}
