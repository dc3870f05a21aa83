// WebDAV benchmark (issue 20): PUT and GET of a 1 GB file with curl, and PROPFIND Depth 1 of a folder of
// 10,000 files, against Clipnest's /dav (a local mount, native_proxy) and Apache mod_dav on the same disk,
// in the same run. Also the Clipnest server's peak RSS during 100 MB and 1 GB PUTs.
// Needs: apt-get install -y apache2 curl (Apache runs as www-data from a throwaway config).
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMountableLocalConfig, api } from './lib/api.mjs';
import { restingRss } from './lib/memory.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { BENCH_ADMIN, freePort, startServer } from './lib/server.mjs';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const FILES = Number(process.env.BENCH_DAV_FILES ?? 10_000);
const RUNS = Number(process.env.BENCH_DAV_RUNS ?? 3);
/** PROPFINDs are cheap: more of them, alternating between the servers, so a burst of load hits both. */
const PROPFIND_RUNS = Number(process.env.BENCH_DAV_PROPFIND_RUNS ?? 9);

/** CPU seconds (user + system) a process and its children so far have used ( /proc/PID/stat, 100 Hz ticks). */
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}

/** A process and its live descendants (Apache's workers). */
function familyOf(pid) {
  const out = [pid];
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  for (const child of r.stdout.split('\n').filter(Boolean)) out.push(...familyOf(Number(child)));
  return out;
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function curl(args) {
  const r = spawnSync('curl', ['-s', '-S', '-f', ...args], { encoding: 'utf8', maxBuffer: 64 * MB });
  if (r.status !== 0) throw new Error(`curl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Seconds curl spent on a transfer (`-w %{time_total}`). */
const timed = (args) => Number(curl(['-o', '/dev/null', '-w', '%{time_total}', ...args]));

function status(pid, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

function sparseFile(file, size) {
  const fd = openSync(file, 'w');
  for (const offset of [0, Math.floor(size / 2), size - 4096]) writeSync(fd, Buffer.alloc(4096, 7), 0, 4096, offset);
  closeSync(fd);
}

async function startApache(root) {
  const port = await freePort();
  const conf = path.join(root, 'apache.conf');
  const docs = path.join(root, 'htdocs');
  mkdirSync(path.join(docs, 'dav'), { recursive: true });
  const mods = ['mpm_event', 'authz_core', 'dav', 'dav_fs', 'alias'];
  writeFileSync(
    conf,
    [
      `ServerRoot /etc/apache2`,
      `PidFile ${root}/apache.pid`,
      ...mods.map((m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`),
      `Listen 127.0.0.1:${port}`,
      `User www-data`,
      `Group www-data`,
      `ServerName 127.0.0.1`,
      `ErrorLog ${root}/error.log`,
      `DocumentRoot ${docs}`,
      `DavLockDB ${root}/davlock`,
      `<Directory ${docs}>`,
      `  Require all granted`,
      `  Dav On`,
      `</Directory>`,
    ].join('\n'),
  );
  spawnSync('chown', ['-R', 'www-data:www-data', root]);
  const child = spawn('/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}/dav`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/`, { method: 'OPTIONS' })).ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid,
    dir: path.join(docs, 'dav'),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-dav-'));
chownSync(work, 33, 33);
const server = await startServer();
const apache = await startApache(path.join(work, 'apache'));
try {
  const token = await server.login();
  // The 1 GB PUTs are uploads like any other: above the default upload limit (100 MB), WebDAV answers 413.
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 4, max_upload_size_unit: 'GB' });
  const localId = (await addMountableLocalConfig(server, token)).id;
  await api(server, token, 'POST', '/api/mount/create', {
    name: 'local',
    path: '/local',
    storage_config_id: localId,
    cache_ttl: 0,
    webdav_policy: 'native_proxy',
  });
  const ours = { url: `${server.url}/dav/local`, auth: ['-u', `${BENCH_ADMIN.username}:${BENCH_ADMIN.password}`] };
  const theirs = { url: apache.url, auth: [] };
  const src = { big: path.join(work, 'big.bin'), mid: path.join(work, 'mid.bin') };
  sparseFile(src.big, GB);
  sparseFile(src.mid, 100 * MB);

  const atRest = { fresh: await restingRss(server.pid) };
  const rss = {};
  for (const [label, file] of [
    ['100 MB', src.mid],
    ['1 GB', src.big],
  ]) {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // resets the peak (VmHWM)
    const before = status(server.pid, 'VmRSS');
    timed([...ours.auth, '-T', file, `${ours.url}/rss-${label.replace(' ', '')}.bin`]);
    rss[label] = { before, peak: status(server.pid, 'VmHWM') };
  }

  const put = { ours: [], theirs: [] };
  const get = { ours: [], theirs: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const [name, side] of [
      ['ours', ours],
      ['theirs', theirs],
    ]) {
      put[name].push(GB / MB / timed([...side.auth, '-T', src.big, `${side.url}/big.bin`]));
      get[name].push(GB / MB / timed([...side.auth, `${side.url}/big.bin`]));
    }
  }

  atRest.transfers = await restingRss(server.pid);

  // 10,000 small files in one folder of each (written on disk directly: this measures the listing).
  const ourDir = path.join(server.dataDir, 'storage', 'mounted', 'many');
  const theirDir = path.join(apache.dir, 'many');
  for (const dir of [ourDir, theirDir]) {
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < FILES; i++)
      writeFileSync(path.join(dir, `file-${String(i).padStart(6, '0')}.txt`), `content ${i}`);
  }
  spawnSync('chown', ['-R', 'www-data:www-data', theirDir]);
  const propfind = { ours: [], theirs: [] };
  const cpu = { ours: 0, theirs: 0 };
  const load = [];
  for (let i = 0; i < PROPFIND_RUNS + 1; i++) {
    for (const [name, side] of i % 2 === 0
      ? [
          ['ours', ours],
          ['theirs', theirs],
        ]
      : [
          ['theirs', theirs],
          ['ours', ours],
        ]) {
      const pids = name === 'ours' ? [server.pid] : familyOf(apache.pid);
      const before = cpuSeconds(pids);
      const s = timed([...side.auth, '-X', 'PROPFIND', '-H', 'Depth: 1', `${side.url}/many/`]);
      if (i > 0) {
        propfind[name].push(s * 1000);
        cpu[name] += cpuSeconds(pids) - before;
      }
    }
    load.push(os.loadavg()[0]);
  }
  const cpuMs = { ours: (cpu.ours * 1000) / PROPFIND_RUNS, theirs: (cpu.theirs * 1000) / PROPFIND_RUNS };
  // The same folder through the fs API as often (the mount caches nothing: each listing reads the folder).
  for (let i = 0; i < PROPFIND_RUNS + 1; i++) await api(server, token, 'GET', '/api/fs/list?path=%2Flocal%2Fmany');
  atRest.listings = await restingRss(server.pid);
  const restMax = Math.max(...Object.values(atRest));

  const r = {
    putOurs: median(put.ours),
    putTheirs: median(put.theirs),
    getOurs: median(get.ours),
    getTheirs: median(get.theirs),
    pfOurs: median(propfind.ours),
    pfTheirs: median(propfind.theirs),
  };
  const mb = (n) => (n / MB).toFixed(0);
  const growth = (k) => (rss[k].peak - rss[k].before) / MB;
  const markdown = `## WebDAV (PUT / GET 1 GB, PROPFIND of 10,000 entries)

${machineLine()}, load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the PROPFINDs. Clipnest (the \`npm start\` bundle, SQLite, admin Basic auth, a local mount with
\`native_proxy\`) against Apache 2.4 mod_dav on the same disk, same run, curl one request at a time
(median of ${RUNS}). The 1 GB source file is sparse (reads cost no disk on either side); both servers write it.

| Operation | Clipnest | Apache mod_dav | ratio |
|---|---:|---:|---:|
| PUT 1 GB (MB/s) | ${r.putOurs.toFixed(0)} | ${r.putTheirs.toFixed(0)} | ${(r.putOurs / r.putTheirs).toFixed(2)} × |
| GET 1 GB (MB/s) | ${r.getOurs.toFixed(0)} | ${r.getTheirs.toFixed(0)} | ${(r.getOurs / r.getTheirs).toFixed(2)} × |
| PROPFIND Depth 1, ${FILES} files (ms, median of ${PROPFIND_RUNS}) | ${r.pfOurs.toFixed(0)} | ${r.pfTheirs.toFixed(0)} | ${(r.pfOurs / r.pfTheirs).toFixed(2)} × |
| PROPFIND Depth 1, ${FILES} files (CPU ms per request) | ${cpuMs.ours.toFixed(0)} | ${cpuMs.theirs.toFixed(0)} | ${(cpuMs.ours / cpuMs.theirs).toFixed(2)} × |

| Target | Result | Met |
|---|---|---|
| PUT ≥ 0.8 × Apache | ${(r.putOurs / r.putTheirs).toFixed(2)} × | ${r.putOurs / r.putTheirs >= 0.8 ? 'yes' : 'no'} |
| GET ≥ 0.8 × Apache | ${(r.getOurs / r.getTheirs).toFixed(2)} × | ${r.getOurs / r.getTheirs >= 0.8 ? 'yes' : 'no'} |
| PROPFIND ≤ 2 × Apache | ${(r.pfOurs / r.pfTheirs).toFixed(2)} × (CPU ${(cpuMs.ours / cpuMs.theirs).toFixed(2)} ×) | ${r.pfOurs / r.pfTheirs <= 2 ? 'yes' : 'no'} |
| RSS growth during a 100 MB PUT ≤ 20 MB | ${growth('100 MB').toFixed(1)} MB (${mb(rss['100 MB'].before)} → peak ${mb(rss['100 MB'].peak)} MB) | ${growth('100 MB') <= 20 ? 'yes' : 'no'} |
| RSS growth during a 1 GB PUT ≤ 20 MB | ${growth('1 GB').toFixed(1)} MB (${mb(rss['1 GB'].before)} → peak ${mb(rss['1 GB'].peak)} MB) | ${growth('1 GB') <= 20 ? 'yes' : 'no'} |
| peak RSS < 200 MB | ${mb(Math.max(rss['100 MB'].peak, rss['1 GB'].peak))} MB | ${Math.max(rss['100 MB'].peak, rss['1 GB'].peak) < 200 * MB ? 'yes' : 'no'} |
| RSS at rest < 200 MB after any of it (lowest over 10 idle s: fresh / after the PUTs and GETs / after ${PROPFIND_RUNS + 1} PROPFINDs and ${PROPFIND_RUNS + 1} fs listings of the ${FILES} files) | ${mb(atRest.fresh)} / ${mb(atRest.transfers)} / ${mb(atRest.listings)} MB | ${restMax < 200 * MB ? 'yes' : 'no'} |
`;
  console.log(markdown);
  writeSection('webdav', markdown);
} finally {
  await apache.stop();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
