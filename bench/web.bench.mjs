// Web first-load benchmark (issue 21): per route, what a cold load transfers (JS/CSS raw and compressed,
// request count, from Chromium's network log) and Lighthouse 12 scores (mobile preset, Debian Chromium,
// median of 3 runs) for Home, a shared paste and a shared file. Needs `npm run build` first and /usr/bin/chromium.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { kb, loadBudgets, measureRoute, seedRoutes } from '../e2e/support/routeWeight.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { repoRoot, startServer } from './lib/server.mjs';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Routes Lighthouse scores (the public pages a visitor opens first). */
const SCORED = ['home', 'paste', 'file'];
const TARGETS = { performance: 90, accessibility: 95, 'best-practices': 95 };
const { chromium } = createRequire(path.join(repoRoot, 'e2e', 'package.json'))('@playwright/test');
const lighthouseBin = path.join(repoRoot, 'node_modules', '.bin', 'lighthouse');

const distIndex = path.join(repoRoot, 'web', 'dist', 'index.html');
if (!existsSync(distIndex)) {
  console.error('web/dist is missing: run `npm run build` first');
  process.exit(1);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** One Lighthouse run (mobile preset, the default): scores 0–100 and first contentful paint in ms. */
async function lighthouse(url, outDir, i) {
  const output = path.join(outDir, `lh-${i}.json`);
  await run(
    lighthouseBin,
    [
      url,
      `--chrome-path=${CHROMIUM}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      '--only-categories=performance,accessibility,best-practices',
      '--output=json',
      `--output-path=${output}`,
      '--quiet',
    ],
    { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CHROME_PATH: CHROMIUM } },
  );
  const report = JSON.parse(readFileSync(output, 'utf8'));
  const score = (id) => Math.round((report.categories[id]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    fcp: report.audits['first-contentful-paint']?.numericValue ?? NaN,
    lcp: report.audits['largest-contentful-paint']?.numericValue ?? NaN,
  };
}

const { routes, pasteTotal } = loadBudgets();
const loadBefore = load();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'clipnest-web-bench-'));
const server = await startServer({ env: { WEB_DIST_DIR: path.join(repoRoot, 'web', 'dist') } });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const token = await server.login();
  const paths = await seedRoutes(server.url, token, routes);
  const rows = [];
  for (const route of routes) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    if (route.admin) await context.addInitScript((value) => localStorage.setItem('admin_token', value), token);
    const weight = await measureRoute(context, server.url + paths[route.name]);
    await context.close();
    let scores = null;
    if (SCORED.includes(route.name)) {
      const runs = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await lighthouse(server.url + paths[route.name], tmp, `${route.name}-${i}`));
      scores = Object.fromEntries(
        ['performance', 'accessibility', 'best-practices', 'fcp', 'lcp'].map((k) => [k, median(runs.map((r) => r[k]))]),
      );
      scores.runs = runs.map((r) => r.performance);
    }
    rows.push({ route, weight, scores });
    console.log(route.name, kb(weight.js.transferred), 'KB JS', scores ?? '');
  }
  const loadAfter = load();

  const yes = (ok) => (ok ? 'yes' : '**no**');
  const score = (s, k) => (s ? `${s[k]}${s[k] >= TARGETS[k] ? '' : ' ✗'}` : '–');
  const table = rows
    .map(({ route, weight, scores }) => {
      const limit = route.limit ?? route.target;
      const js = kb(weight.js.transferred);
      return `| ${route.label} | ${kb(weight.js.raw)} | ${js} | ${route.target}${limit !== route.target ? ` (enforced ${limit})` : ''} | ${yes(js <= route.target)} | ${kb(weight.css.raw)} | ${kb(weight.css.transferred)} | ${weight.requests} | ${kb(weight.wire)} | ${score(scores, 'performance')} | ${score(scores, 'accessibility')} | ${score(scores, 'best-practices')} | ${scores ? `${(scores.fcp / 1000).toFixed(2)} s` : '–'} |`;
    })
    .join('\n');
  const paste = rows.find((r) => r.route.seed === 'paste');
  const lhRuns = rows
    .filter((r) => r.scores)
    .map((r) => `${r.route.label} ${r.scores.runs.join(', ')}`)
    .join('; ');
  const markdown = `## Web first load

${machineLine()}, load average ${loadBefore} before and ${loadAfter} after the run (2 shared cores).
Each route loaded cold in a fresh Chromium context (no cache, no service worker) from the server \`npm start\` runs, until the
network was idle; sizes from Chromium's network log: *raw* is the decoded body, *compressed* what came over the wire (brotli,
precompressed at build time), bodies only; *total transferred* adds every response's headers. JS budgets from \`e2e/budgets.json\` (KB = 1024 bytes), checked by
\`e2e/tests/route-budgets.spec.ts\` in \`npm test\`. Lighthouse 12.8.2, mobile preset (simulated slow 4G, 4× CPU slowdown),
Debian Chromium headless, median of ${RUNS} runs (performance per run: ${lhRuns}); targets: performance ≥ 90, accessibility ≥ 95,
best practices ≥ 95 (✗ = below). The paste is a Markdown paste with a table and a code block; the file an image share.

| Route | JS raw KB | JS compressed KB | JS budget KB | within | CSS raw KB | CSS compressed KB | requests | total transferred KB | Perf | A11y | BP | FCP |
|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|
${table}

Opening a shared paste link cold transfers ${kb(paste.weight.wire)} KB in total, headers included (target < ${pasteTotal.target} KB: ${yes(kb(paste.weight.wire) < pasteTotal.target)}).
`;
  writeSection('web', markdown);
  console.log(markdown);
} finally {
  await browser.close();
  await server.stop();
  if (!process.env.BENCH_KEEP) rmSync(tmp, { recursive: true, force: true });
}
