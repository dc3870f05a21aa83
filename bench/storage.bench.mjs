// Remote storage benchmark (issue 38, "Speed"): for each of the webdav, sftp and ftp storage types, a 1 GiB upload
// and download through Clipnest (curl PUT / GET on Clipnest's /dav of a mount of that type) against the same transfer
// with a direct client (curl to Apache mod_dav; sftp -b to OpenSSH sshd; curl ftp:// to vsftpd), the Clipnest
// server's RSS before / peak / after its transfers, and a listing of a folder of 10,000 entries through Clipnest
// (GET /api/fs/list?refresh=true and PROPFIND Depth 1) against the direct client's listing (PROPFIND Depth 1 with
// curl; sftp `ls -l`; curl ftp LIST). All servers run on 127.0.0.1 in the same run; everything is removed afterwards.
//
//   npm run bench -w bench -- storage [--size 256M] [--runs 2] [--files 10000] [--types webdav,sftp] [--tag before]
//
// Flags go through npm: `npm run bench -w bench -- storage --size 256M`. --tag writes the section
// `storage-<tag>` instead of `storage` (a before/after pair). Needs (Debian): apache2 openssh-server
// openssh-client vsftpd curl, and root (vsftpd chroots its anonymous user).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api } from './lib/api.mjs';
import { monitor, procStatus } from './lib/memory.mjs';
import { startRelay } from './lib/relay.mjs';
import { startApache, startSshd, startVsftpd } from './lib/remoteServers.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { BENCH_ADMIN, startServer } from './lib/server.mjs';

const MB = 1024 ** 2;

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]?)i?B?$/i.exec(text.trim());
  if (!m) throw new Error(`--size: "${text}" is not a size such as 256M or 1G`);
  return Math.round(Number(m[1]) * 1024 ** ' KMG'.indexOf((m[2] || ' ').toUpperCase()));
}
const SIZE = parseSize(flag('size', '1G'));
const RUNS = Number(flag('runs', '1'));
const FILES = Number(flag('files', '10000'));
const LIST_RUNS = Number(flag('list-runs', '5'));
const TYPES = flag('types', 'webdav,sftp,ftp').split(',');
const TAG = flag('tag', '');
const sizeLabel = SIZE % 1024 ** 3 === 0 ? `${SIZE / 1024 ** 3} GiB` : `${(SIZE / MB).toFixed(0)} MiB`;

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

function run(command, args, input) {
  const t0 = performance.now();
  const r = spawnSync(command, args, { encoding: 'utf8', input, maxBuffer: 256 * MB });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}
/** Seconds curl spent on a request (`-w %{time_total}`), its body discarded. */
const curl = (args) =>
  Number(run('curl', ['-s', '-S', '-f', '-o', '/dev/null', '-w', '%{time_total}', ...args]).stdout);

function sparseFile(file, size) {
  const fd = openSync(file, 'w');
  for (const offset of [0, Math.floor(size / 2), size - 4096]) writeSync(fd, Buffer.alloc(4096, 7), 0, 4096, offset);
  closeSync(fd);
}
function seedFolder(dir) {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(dir, `file-${String(i).padStart(6, '0')}.txt`), `c ${i}`);
}

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
const source = path.join(work, 'source.bin');
sparseFile(source, SIZE);

const stops = [];
const server = await startServer({ env: { STORAGE_ENDPOINTS_ALLOW_PRIVATE: 'true' } });
stops.push(() => server.stop());
const rows = [];
const loads = [];
try {
  const token = await server.login();
  // The default upload limit is below 1 GiB.
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 4, max_upload_size_unit: 'GB' });
  const ourAuth = ['-u', `${BENCH_ADMIN.username}:${BENCH_ADMIN.password}`];
  const bearer = ['-H', `authorization: Bearer ${token}`];

  /** Each type: its server, the config body, the mount's folder for the test files, and the direct client. */
  const setups = {
    async webdav() {
      const dav = await startApache();
      stops.push(() => dav.stop());
      const auth = ['-u', `${dav.username}:${dav.password}`];
      return {
        label: 'WebDAV (Apache mod_dav)',
        client: 'curl',
        config: { endpoint_url: dav.url, username: dav.username, password: dav.password },
        folder: '',
        seed: () => {
          seedFolder(path.join(dav.root, 'many'));
          dav.own(path.join(dav.root, 'many'));
        },
        upload: () => curl([...auth, '-T', source, `${dav.url}direct.bin`]),
        download: () => curl([...auth, `${dav.url}direct.bin`]),
        list: () => curl([...auth, '-X', 'PROPFIND', '-H', 'Depth: 1', `${dav.url}many/`]),
        connect: () => 0,
        relay: ['http', dav.url, dav.username, dav.password],
        cleanup: (name = 'direct.bin') => rmSync(path.join(dav.root, name), { force: true }),
      };
    },
    async sftp() {
      const sshd = await startSshd();
      stops.push(() => sshd.stop());
      const sftp = (batch) =>
        run(
          'sftp',
          [
            '-q',
            '-b',
            '-',
            '-i',
            sshd.keyFile,
            '-P',
            String(sshd.port),
            '-o',
            'StrictHostKeyChecking=no',
            '-o',
            'UserKnownHostsFile=/dev/null',
            '-o',
            'BatchMode=yes',
            '-o',
            'LogLevel=ERROR',
            `${sshd.username}@${sshd.host}`,
          ],
          `${batch}\n`,
        ).seconds;
      return {
        label: 'SFTP (OpenSSH sshd)',
        client: 'sftp -b',
        config: {
          host: sshd.host,
          port: sshd.port,
          username: sshd.username,
          private_key: sshd.privateKey,
          root_folder: sshd.root,
        },
        folder: '',
        seed: () => seedFolder(path.join(sshd.root, 'many')),
        upload: () => sftp(`put ${source} ${sshd.root}/direct.bin`),
        download: () => sftp(`get ${sshd.root}/direct.bin /dev/null`),
        list: () => sftp(`ls -l ${sshd.root}/many`),
        // The direct client logs in again for every command; Clipnest keeps its connection pooled.
        connect: () => sftp('pwd'),
        cleanup: (name = 'direct.bin') => rmSync(path.join(sshd.root, name), { force: true }),
      };
    },
    async ftp() {
      const ftp = await startVsftpd();
      stops.push(() => ftp.stop());
      const base = `ftp://${ftp.host}:${ftp.port}${ftp.ftpRoot}`;
      const auth = ['-u', `${ftp.username}:${ftp.password}`];
      return {
        label: 'FTP (vsftpd)',
        client: 'curl ftp://',
        config: { host: ftp.host, port: ftp.port, username: ftp.username, password: ftp.password, tls: 'none' },
        folder: '/pub',
        seed: () => {
          seedFolder(path.join(ftp.root, 'many'));
          ftp.own(path.join(ftp.root, 'many'));
        },
        upload: () => curl([...auth, '-T', source, `${base}/direct.bin`]),
        download: () => curl([...auth, `${base}/direct.bin`]),
        list: () => curl([...auth, `${base}/many/`]),
        connect: () => 0,
        relay: ['ftp', ftp.host, ftp.port, ftp.username, ftp.password, ftp.ftpRoot],
        cleanup: (name = 'direct.bin') => rmSync(path.join(ftp.root, name), { force: true }),
      };
    },
  };

  for (const type of TYPES) {
    if (!setups[type]) throw new Error(`--types: unknown type "${type}" (webdav, sftp, ftp)`);
    const s = await setups[type]();
    const config = await api(server, token, 'POST', '/api/s3-configs', { storage_type: type, name: type, ...s.config });
    await api(server, token, 'POST', '/api/mount/create', {
      name: type,
      path: `/r-${type}`,
      storage_config_id: config.id,
      cache_ttl: 0,
      webdav_policy: 'native_proxy',
    });
    const ours = `${server.url}/dav/r-${type}${s.folder}`;
    console.log(`${type}: ${sizeLabel} × ${RUNS}`);

    const t = { upDirect: [], downDirect: [], upOurs: [], downOurs: [], upRelay: [], downRelay: [] };
    const relay = s.relay ? await startRelay(s.relay) : undefined;
    if (relay) stops.push(relay.stop);
    const rss = { before: procStatus(server.pid).rss, peak: 0, after: 0 };
    for (let i = 0; i < RUNS; i++) {
      // Alternate who goes first, so a burst of load from other agents does not always hit the same side.
      const direct = () => {
        t.upDirect.push(s.upload());
        t.downDirect.push(s.download());
        s.cleanup();
      };
      const viaUs = () => {
        const m = monitor(server.pid);
        t.upOurs.push(curl([...ourAuth, '-T', source, `${ours}/through.bin`]));
        t.downOurs.push(curl([...ourAuth, `${ours}/through.bin`]));
        rss.peak = Math.max(rss.peak, m.stop().peakRss);
        curl([...ourAuth, '-X', 'DELETE', `${ours}/through.bin`]);
      };
      // A bare Node process in the middle (lib/relay.mjs): what any Node server can reach on this machine.
      const viaRelay = () => {
        if (!relay) return;
        t.upRelay.push(curl(['-T', source, `${relay.url}relay.bin`]));
        t.downRelay.push(curl([`${relay.url}relay.bin`]));
        s.cleanup('relay.bin');
      };
      const order = i % 2 === 0 ? [direct, viaRelay, viaUs] : [viaUs, viaRelay, direct];
      for (const side of order) side();
      loads.push(os.loadavg()[0]);
    }
    await new Promise((r) => setTimeout(r, 1000));
    rss.after = procStatus(server.pid).rss;

    s.seed();
    const listPath = encodeURIComponent(`/r-${type}${s.folder}/many`);
    // A listing Clipnest fails (e.g. a timeout) is reported in the table instead of ending the run.
    let listError;
    const l = { direct: [], connect: [], api: [], propfind: [] };
    try {
      const listed = await api(server, token, 'GET', `/api/fs/list?path=${listPath}&refresh=true`);
      if (listed.items.length !== FILES) throw new Error(`${type}: listed ${listed.items.length} of ${FILES}`);
    } catch (error) {
      listError = String(error.message).slice(0, 160);
    }
    for (let i = 0; i < LIST_RUNS && !listError; i++) {
      l.direct.push(s.list() * 1000);
      l.connect.push(s.connect() * 1000);
      try {
        l.api.push(curl([...bearer, `${server.url}/api/fs/list?path=${listPath}&refresh=true`]) * 1000);
        l.propfind.push(curl([...ourAuth, '-X', 'PROPFIND', '-H', 'Depth: 1', `${ours}/many/`]) * 1000);
      } catch (error) {
        listError = String(error.message).split('\n')[0].slice(-160);
      }
    }
    const mbps = (seconds) => SIZE / MB / median(seconds);
    rows.push({
      type,
      label: s.label,
      client: s.client,
      up: { ours: mbps(t.upOurs), direct: mbps(t.upDirect), relay: relay ? mbps(t.upRelay) : undefined },
      down: { ours: mbps(t.downOurs), direct: mbps(t.downDirect), relay: relay ? mbps(t.downRelay) : undefined },
      rss,
      list: {
        direct: median(l.direct),
        connect: median(l.connect),
        api: median(l.api),
        propfind: median(l.propfind),
        error: listError,
      },
    });
    console.log(JSON.stringify(rows.at(-1)));
  }
} finally {
  for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
  rmSync(work, { recursive: true, force: true });
}

const f0 = (n) => n.toFixed(0);
const ratio = (n) => `${n.toFixed(2)} ×`;
const yes = (ok) => (ok ? 'yes' : '**no**');
const table = [
  `| Type | Operation | Clipnest | direct client | ratio | target | met | bare Node relay (Clipnest ÷ relay) |`,
  `|---|---|---:|---:|---:|---|---|---:|`,
];
for (const r of rows) {
  const up = r.up.ours / r.up.direct;
  const down = r.down.ours / r.down.direct;
  const growth = (r.rss.peak - r.rss.before) / MB;
  // The direct listing time includes the client's own login; for sftp that is a whole SSH handshake, so the
  // target is checked against the listing with the login time taken off (the stricter comparison).
  const directList = Math.max(1, r.list.direct - r.list.connect);
  const apiRatio = r.list.api / directList;
  const pfRatio = r.list.propfind / directList;
  const viaRelay = (side) => (side.relay ? `${f0(side.relay)} (${ratio(side.ours / side.relay)})` : '');
  const minus = r.list.connect ? ` (${f0(r.list.direct)} incl. login)` : '';
  const listRows = r.list.error
    ? [
        `| | list ${FILES} entries through Clipnest | failed: ${r.list.error.replaceAll('|', '/')} | | | ≤ 1.5 × | **no** |`,
      ]
    : [
        `| | list ${FILES} entries, fs API (ms) | ${f0(r.list.api)} | ${f0(directList)}${minus} | ${ratio(apiRatio)} | ≤ 1.5 × | ${yes(apiRatio <= 1.5)} |`,
        `| | list ${FILES} entries, PROPFIND (ms) | ${f0(r.list.propfind)} | ${f0(directList)}${minus} | ${ratio(pfRatio)} | ≤ 1.5 × | ${yes(pfRatio <= 1.5)} |`,
      ];
  table.push(
    `| ${r.label} | upload ${sizeLabel} (MB/s) | ${f0(r.up.ours)} | ${f0(r.up.direct)} (${r.client}) | ${ratio(up)} | ≥ 0.8 × | ${yes(up >= 0.8)} | ${viaRelay(r.up)} |`,
    `| | download ${sizeLabel} (MB/s) | ${f0(r.down.ours)} | ${f0(r.down.direct)} | ${ratio(down)} | ≥ 0.8 × | ${yes(down >= 0.8)} | ${viaRelay(r.down)} |`,
    `| | server RSS before / peak / after (MB) | ${f0(r.rss.before / MB)} / ${f0(r.rss.peak / MB)} / ${f0(r.rss.after / MB)} | | +${growth.toFixed(1)} MB | ≤ 50 MB | ${yes(growth <= 50)} |`,
    ...listRows,
  );
}
const markdown = `## Remote storage types: transfer and listing vs direct clients${TAG ? ` (${TAG})` : ''}

${machineLine()}, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the transfers
(the machine is shared with other agents: absolute figures are noisy, the ratios come from the same run).
Clipnest (the \`npm start\` bundle, SQLite) with one mount per type (\`cache_ttl: 0\`, \`native_proxy\`) and the three
servers on 127.0.0.1. Through Clipnest: curl PUT / GET on \`/dav/<mount>/\` (admin Basic auth); direct: curl to
Apache, \`sftp -b\` (key login) to sshd, \`curl ftp://\` to vsftpd. Median of ${RUNS} run(s), alternating which side goes
first; the ${sizeLabel} source is sparse (reading it costs no disk), both sides write it to the same disk. RSS: the
Clipnest server's process before, at its peak during, and 1 s after its transfers. Last column: the same transfer
through a bare Node relay (bench/lib/relay.mjs: a Node HTTP server that pipes to the remote server and back, nothing
else), the ceiling for any Node server in the middle. Listings: median of ${LIST_RUNS},
a folder of ${FILES} files seeded on the server's disk, Clipnest uncached (\`refresh=true\`, \`cache_ttl: 0\`).

${table.join('\n')}
`;
console.log(markdown);
writeSection(TAG ? `storage-${TAG}` : 'storage', markdown);
