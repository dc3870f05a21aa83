// End-to-end encrypted upload benchmark (issue 25): the same file uploaded from Chromium through the Upload
// page (resumable multipart to the built-in local storage), once as is and once with "End-to-end encrypted"
// on (64 KiB AES-256-GCM records, each 5 MiB part encrypted while earlier parts upload), in the same run. Reports wall time,
// throughput, the ratio (target ≥ 0.7×), the page's JS heap (CDP Performance.getMetrics) and the resident
// memory of the renderer and browser processes (what the heap misses: the sealing worker, Blob bytes), sampled
// every 250 ms (peak and end), to show they stay flat. BENCH_E2EE_MB sets the size (default 256; the issue
// asks about 1024), BENCH_E2EE_RUNS the runs of each (default 2, best taken). Needs `npm run build` first and
// /usr/bin/chromium.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { api } from './lib/api.mjs';
import { chromiumUsage } from './lib/chromiumProcesses.mjs';
import { cpuSeconds } from './lib/proc.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { BENCH_ADMIN, repoRoot, startServer } from './lib/server.mjs';

const MiB = 1024 * 1024;
const DEFAULT_MB = 256;
const SIZE_MB = Number(process.env.BENCH_E2EE_MB ?? DEFAULT_MB);
const RUNS = Math.max(1, Number(process.env.BENCH_E2EE_RUNS ?? 2));
const { chromium } = createRequire(path.join(repoRoot, 'e2e', 'package.json'))('@playwright/test');

if (!existsSync(path.join(repoRoot, 'web', 'dist', 'index.html'))) {
  console.error('web/dist is missing: run `npm run build` first');
  process.exit(1);
}

function makeSource(dir) {
  const file = path.join(dir, 'bench-e2ee.bin');
  const fd = openSync(file, 'w');
  const block = randomBytes(8 * MiB);
  for (let written = 0; written < SIZE_MB * MiB; written += block.length) writeSync(fd, block);
  closeSync(fd);
  return file;
}

// Each upload in a browser of its own with a normal (persistent) profile, as users have: an incognito
// context keeps the origin private file system, where encrypted parts wait for their upload, in the browser
// process's memory instead of on disk.
async function uploadOnce(server, source, encrypted) {
  const context = await chromium.launchPersistentContext(mkdtempSync(path.join(work, 'profile-')), {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
    baseURL: server.url,
    serviceWorkers: 'block',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto('/admin');
  await page.getByLabel('Username').fill(BENCH_ADMIN.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(BENCH_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForFunction(() => localStorage.getItem('admin_token'));
  await page.goto('/upload');
  await page.getByTestId('upload-input').setInputFiles(source);
  if (encrypted) await page.getByRole('switch', { name: 'End-to-end encrypted' }).click();
  const heap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  };
  const sample = async () => {
    const { renderer, browser } = chromiumUsage();
    return { heap: await heap().catch(() => 0), renderer, browser };
  };
  const before = await sample();
  const peak = { ...before };
  const usageBefore = chromiumUsage();
  const serverBefore = cpuSeconds(server.pid);
  const cpuBefore = usageBefore.cpu + serverBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const [name, value] of Object.entries(await sample())) peak[name] = Math.max(peak[name], value);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const started = performance.now();
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await page
    .getByTestId('upload-item')
    .first()
    .and(page.locator('[data-stage="completed"]'))
    .waitFor({ timeout: 30 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  const usageAfter = chromiumUsage();
  const cpu = usageAfter.cpu + cpuSeconds(server.pid) - cpuBefore;
  const cpuByProcess = { server: cpuSeconds(server.pid) - serverBefore };
  for (const [kind, seconds] of Object.entries(usageAfter.cpuByKind))
    cpuByProcess[kind] = seconds - (usageBefore.cpuByKind[kind] ?? 0);
  sampling = false;
  await sampler;
  const end = await sample();
  await context.close();
  return { seconds, cpu, cpuByProcess, before, peak, end };
}

const work = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-e2ee-'));
const server = await startServer();
try {
  const token = await server.login();
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 3, max_upload_size_unit: 'GB' });
  const source = makeSource(work);
  // Plain and encrypted, alternating (the first pair also warms the page code and the server's JIT).
  const results = { plain: [], encrypted: [] };
  const loads = [];
  const mib = (bytes) => (bytes / MiB).toFixed(1);
  const triple = (r, name) => `${mib(r.before[name])} / ${mib(r.peak[name])} / ${mib(r.end[name])}`;
  for (let run = 0; run < RUNS; run++) {
    for (const mode of ['plain', 'encrypted']) {
      loads.push(os.loadavg()[0]);
      const r = await uploadOnce(server, source, mode === 'encrypted');
      console.log(
        `${mode}: ${r.seconds.toFixed(1)} s, CPU ${r.cpu.toFixed(1)} s, heap ${triple(r, 'heap')}, renderer RSS ${triple(r, 'renderer')}, browser RSS ${triple(r, 'browser')} MiB; CPU by process: ${Object.entries(
          r.cpuByProcess,
        )
          .filter(([, s]) => s >= 0.05)
          .map(([kind, s]) => `${kind} ${s.toFixed(1)} s`)
          .join(', ')}`,
      );
      results[mode].push(r);
    }
  }
  const best = (list) => list.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const plain = best(results.plain);
  const enc = best(results.encrypted);
  const mbps = (r) => (SIZE_MB / r.seconds).toFixed(1);
  const ratio = plain.seconds / enc.seconds;
  const memoryRows = (label, list) =>
    list
      .map(
        (r, i) =>
          `| ${label} ${i + 1} | ${r.seconds.toFixed(1)} s | ${r.cpu.toFixed(1)} s | ${triple(r, 'heap')} | ${triple(r, 'renderer')} | ${triple(r, 'browser')} |`,
      )
      .join('\n');
  // The default size has the section the docs refer to; another size (the 1 GiB case) gets one of its own.
  writeSection(
    SIZE_MB === DEFAULT_MB ? 'e2ee' : `e2ee-${SIZE_MB}`,
    `## End-to-end encrypted upload${SIZE_MB === DEFAULT_MB ? '' : `, ${SIZE_MB} MiB`} (issue 25)

${machineLine()}, load average during the run ${loads.map((l) => l.toFixed(1)).join(' / ')} (1 min, at each upload). One ${SIZE_MB} MiB file uploaded from Chromium through the Upload page (resumable multipart to the
built-in local storage), as is and with "End-to-end encrypted" on, alternating, in the same run (best of ${RUNS} each).

| Upload | Time | Throughput |
|---|---:|---:|
| Plain | ${plain.seconds.toFixed(1)} s | ${mbps(plain)} MiB/s |
| Encrypted (AES-256-GCM, 64 KiB records) | ${enc.seconds.toFixed(1)} s | ${mbps(enc)} MiB/s |
| **Encrypted / plain speed** | **${ratio.toFixed(2)}×** (target ≥ 0.7×) | |

Each run: its time, the CPU time it cost (all Chromium processes and the server, out of ${os.availableParallelism()} × the time on
this machine), and memory before / peak / after, MiB: the page's JS heap (CDP JSHeapUsedSize), and the
resident memory of the renderer processes (the page and its sealing worker) and of the browser process:

| Run | Time | CPU | JS heap | Renderer RSS | Browser RSS |
|---|---:|---:|---|---|---|
${memoryRows('Plain', results.plain)}
${memoryRows('Encrypted', results.encrypted)}

Encryption overlaps the upload: each 5 MiB part is encrypted in a Web Worker, in order, up to three parts
ahead of the three upload workers, and written to one of the worker's files in the origin private file
system, which takes another part once this one is sent, so at most six parts are held at once (on disk)
whatever the file size. Each upload runs in a browser of its own with a normal profile. \`BENCH_E2EE_MB=1024 npm run bench -w bench -- e2ee\` for the 1 GB case.`,
  );
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
