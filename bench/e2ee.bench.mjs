// End-to-end encrypted upload benchmark (issue 25): the same file uploaded from Chromium through the Upload
// page (resumable multipart to the built-in local storage), once as is and once with "End-to-end encrypted"
// on (64 KiB AES-256-GCM records, each 5 MiB part encrypted while earlier parts upload), in the same run. Reports wall time,
// throughput, the ratio (target ≥ 0.7×) and the page's JS heap (CDP Performance.getMetrics, sampled every
// 250 ms: peak and end) to show it stays flat. BENCH_E2EE_MB sets the size (default 256; the issue asks
// about 1024). Needs `npm run build` first and /usr/bin/chromium.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { api } from './lib/api.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { BENCH_ADMIN, repoRoot, startServer } from './lib/server.mjs';

const MiB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_E2EE_MB ?? 256);
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

async function uploadOnce(browser, server, source, encrypted) {
  const context = await browser.newContext({ baseURL: server.url, serviceWorkers: 'block' });
  const page = await context.newPage();
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
  const before = await heap();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await heap().catch(() => 0));
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
  sampling = false;
  await sampler;
  const end = await heap();
  await context.close();
  return { seconds, before, peak, end };
}

const work = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-e2ee-'));
const server = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const token = await server.login();
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 3, max_upload_size_unit: 'GB' });
  const source = makeSource(work);
  // Warm-up (page code, server JIT), then plain and encrypted, alternating.
  const results = { plain: [], encrypted: [] };
  const loads = [];
  for (const mode of ['plain', 'encrypted', 'plain', 'encrypted']) {
    loads.push(os.loadavg()[0]);
    const r = await uploadOnce(browser, server, source, mode === 'encrypted');
    console.log(
      `${mode}: ${r.seconds.toFixed(1)} s, heap ${(r.before / MiB).toFixed(1)} → peak ${(r.peak / MiB).toFixed(1)} → ${(r.end / MiB).toFixed(1)} MiB`,
    );
    results[mode].push(r);
  }
  const best = (list) => list.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const plain = best(results.plain);
  const enc = best(results.encrypted);
  const mbps = (r) => (SIZE_MB / r.seconds).toFixed(1);
  const ratio = plain.seconds / enc.seconds;
  const heapRow = (label, list) =>
    `| ${label} | ${list.map((r) => `${(r.before / MiB).toFixed(1)} / ${(r.peak / MiB).toFixed(1)} / ${(r.end / MiB).toFixed(1)}`).join('; ')} |`;
  writeSection(
    'e2ee',
    `## End-to-end encrypted upload (issue 25)

${machineLine()}, load average during the run ${loads.map((l) => l.toFixed(1)).join(' / ')} (1 min, at each upload). One ${SIZE_MB} MiB file uploaded from Chromium through the Upload page (resumable multipart to the
built-in local storage), as is and with "End-to-end encrypted" on, in the same run (best of 2 each).

| Upload | Time | Throughput |
|---|---:|---:|
| Plain | ${plain.seconds.toFixed(1)} s | ${mbps(plain)} MiB/s |
| Encrypted (AES-256-GCM, 64 KiB records) | ${enc.seconds.toFixed(1)} s | ${mbps(enc)} MiB/s |
| **Encrypted / plain speed** | **${ratio.toFixed(2)}×** (target ≥ 0.7×) | |

Page JS heap (CDP JSHeapUsedSize) before / peak / after, MiB:

| Upload | Runs |
|---|---|
${heapRow('Plain', results.plain)}
${heapRow('Encrypted', results.encrypted)}

Encryption overlaps the upload: each 5 MiB part is encrypted when an upload worker needs it, one part
ahead of the three workers (so part N+1 is encrypted while part N uploads), and at most four parts are held
at once whatever the file size. \`BENCH_E2EE_MB=1024 npm run bench -w bench -- e2ee\` for the 1 GB case.`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
