// Opt-in scenario (issue 24): memory of POST /api/admin/import/cloudpaste with a ~100 MB CloudPaste backup
// (synthetic: 10 KB pastes, the CloudPaste 1.9.1 layout and checksum). Baseline in the same run: the server's
// RSS before the import. Writes the "cloudpaste-import" section of docs/benchmarks.md.
//   npm run bench -w bench -- cloudpaste-import      (CLIPNEST_CP_MB changes the size)
import { createHash, randomBytes } from 'node:crypto';
import { monitor, procStatus } from './lib/memory.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { startServer } from './lib/server.mjs';

const MiB = 1024 * 1024;
const TARGET = Number(process.env.CLIPNEST_CP_MB ?? 100) * MiB;
const CONTENT = 10 * 1024;

function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted(value[k])]),
    );
  }
  return value;
}

function makeBackup() {
  const pastes = [];
  const filler = randomBytes(CONTENT).toString('base64').slice(0, CONTENT);
  for (let i = 0; pastes.length * (CONTENT + 400) < TARGET; i++) {
    pastes.push({
      id: `bench-${i.toString(36).padStart(8, '0')}`,
      slug: `cp-bench-${i}`,
      content: `${i} ${filler}`,
      title: null,
      remark: null,
      password: null,
      expires_at: null,
      max_views: null,
      views: 0,
      is_public: 1,
      created_by: 'admin-id',
      created_at: '2026-11-24T07:09:28.434Z',
      updated_at: '2026-11-24 07:09:28',
    });
  }
  const data = { pastes, paste_passwords: [] };
  const checksum = createHash('sha256')
    .update(JSON.stringify(sorted(data)))
    .digest('hex')
    .slice(0, 16);
  const metadata = {
    version: '1.0',
    timestamp: new Date().toISOString(),
    backup_type: 'modules',
    schema_version: '34',
    selected_modules: ['text_management'],
    included_modules: ['text_management'],
    auto_included_dependencies: [],
    tables: { pastes: pastes.length, paste_passwords: 0 },
    total_records: pastes.length,
    checksum,
  };
  return { text: JSON.stringify({ metadata, data }, null, 2), rows: pastes.length };
}

const { text, rows } = makeBackup();
const server = await startServer();
try {
  const token = await server.login();
  const run = async (dryRun) => {
    const body = `{"dry_run":${dryRun},"backup":${text}}`;
    const watch = monitor(server.pid);
    const started = performance.now();
    const res = await fetch(`${server.url}/api/admin/import/cloudpaste`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const json = await res.json();
    const seconds = (performance.now() - started) / 1000;
    const mem = watch.stop();
    if (!res.ok) throw new Error(`${res.status} ${json.message}`);
    if (json.data.kinds.pastes.created !== rows)
      throw new Error(`created ${json.data.kinds.pastes.created} of ${rows}`);
    return { bytes: Buffer.byteLength(body), seconds, ...mem };
  };
  const idle = procStatus(server.pid).rss;
  const dry = await run(true);
  const real = await run(false);
  const mb = (b) => (b / MiB).toFixed(0);
  const line = (name, r) =>
    `| ${name} | ${mb(r.bytes)} MB | ${r.seconds.toFixed(1)} s | ${mb(r.startRss)} MB | ${mb(r.peakRss)} MB | ${((r.peakRss - idle) / r.bytes).toFixed(1)}× |`;
  const markdown = `## cloudpaste-import

CloudPaste backup import (\`POST /api/admin/import/cloudpaste\`), ${rows} pastes of 10 KB. Baseline: the server's RSS
before the first import (${mb(idle)} MB). ${machineLine()}.

| run | body | time | RSS before | peak RSS | (peak − baseline) / body |
| --- | --- | --- | --- | --- | --- |
${line('dry run', dry)}
${line('import (one transaction)', real)}
`;
  console.log(markdown);
  writeSection('cloudpaste-import', markdown);
} finally {
  await server.stop();
}
