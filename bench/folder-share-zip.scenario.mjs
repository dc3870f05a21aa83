// Opt-in scenario: "download all as zip" of a 2 GiB folder share streams with flat memory. 32 files of 64 MiB
// (sparse: written as holes, read back as zeros, so the disk is barely touched) in a mounted local folder,
// shared with POST /api/shares, then GET /api/shares/{slug}/zip is drained by Node's fetch while the server's
// RSS is sampled (lib/memory.mjs). Baseline in the same run: the same folder through POST /api/fs/zip.
//
//   npm run build && npm run bench -w bench -- folder-share-zip
import { closeSync, ftruncateSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { addMountableLocalConfig, api } from './lib/api.mjs';
import { monitor } from './lib/memory.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { startServer } from './lib/server.mjs';

const MiB = 1024 * 1024;
const FILES = 32;
const FILE_BYTES = 64 * MiB;

async function drained(pid, request) {
  const mon = monitor(pid);
  const start = performance.now();
  const res = await request();
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.byteLength;
  const ms = performance.now() - start;
  const { startRss, peakRss } = mon.stop();
  return { bytes, ms, startRss, peakRss, length: Number(res.headers.get('content-length')) };
}

const server = await startServer({ env: { LOG_LEVEL: 'error' } });
try {
  const token = await server.login();
  const local = await addMountableLocalConfig(server, token);
  await api(server, token, 'POST', '/api/mount/create', {
    name: 'local',
    path: '/local',
    storage_config_id: local.id,
    cache_ttl: 0,
  });
  const dir = path.join(local.root, 'big-album');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const fd = openSync(path.join(dir, `photo-${String(i).padStart(2, '0')}.raw`), 'w');
    ftruncateSync(fd, FILE_BYTES);
    closeSync(fd);
  }
  const share = await api(server, token, 'POST', '/api/shares', { path: '/local/big-album' });
  const fsZip = await drained(server.pid, () =>
    fetch(`${server.url}/api/fs/zip`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['/local/big-album'] }),
    }),
  );
  // After the baseline, so both run warm (the first zip of a process pays for JIT and buffer pools).
  const shareZip = await drained(server.pid, () => fetch(`${server.url}/api/shares/${share.slug}/zip?path=/`));
  if (shareZip.bytes !== shareZip.length) throw new Error(`zip: ${shareZip.bytes} bytes, announced ${shareZip.length}`);
  const row = (name, r) =>
    `| ${name} | ${(r.bytes / MiB / 1024).toFixed(2)} GiB | ${(r.bytes / MiB / (r.ms / 1000)).toFixed(0)} MB/s | ${(r.startRss / MiB).toFixed(0)} MB | ${(r.peakRss / MiB).toFixed(0)} MB (+${((r.peakRss - r.startRss) / MiB).toFixed(0)} MB) |`;
  const md = `## folder share zip, 2 GiB (\`folder-share-zip.scenario.mjs\`)

${machineLine()}; ${FILES} × ${FILE_BYTES / MiB} MiB (sparse files) in one shared folder; one run each, the
baseline first (the first zip of a process also pays for JIT and buffer pools).

| what | bytes | rate | server RSS at start | server peak RSS (growth) |
| --- | --- | --- | --- | --- |
${row('GET /api/shares/{slug}/zip', shareZip)}
${row('POST /api/fs/zip (baseline)', fsZip)}
`;
  writeSection('folder-share-zip', md);
  console.log(md);
} finally {
  await server.stop();
}
