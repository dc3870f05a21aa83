import { execFile } from 'node:child_process'; import { promisify } from 'node:util'; import path from 'node:path'; import fs from 'node:fs';
import { loadBudgets, seedRoutes } from '../e2e/support/routeWeight.mjs';
import { repoRoot, startServer } from './lib/server.mjs';
const run = promisify(execFile);
const which = process.argv[2] ?? 'paste';
const { routes } = loadBudgets();
const server = await startServer({ env: { WEB_DIST_DIR: path.join(repoRoot, 'web', 'dist') } });
try {
  const token = await server.login();
  const paths = await seedRoutes(server.url, token, routes);
  const out = `/tmp/t21/lh-${which}.json`;
  await run(path.join(repoRoot, 'node_modules/.bin/lighthouse'), [server.url + paths[which], '--chrome-path=/usr/bin/chromium', '--chrome-flags=--headless=new --no-sandbox --disable-gpu', '--only-categories=performance,accessibility,best-practices', '--output=json', `--output-path=${out}`, '--quiet'], { maxBuffer: 1 << 26 });
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  console.log(which, 'perf', r.categories.performance.score);
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index', 'interactive', 'max-potential-fid'])
    console.log(id, r.audits[id]?.displayValue, r.audits[id]?.score);
  const lcpEl = r.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet; console.log('LCP el', lcpEl);
  console.log('bootup', JSON.stringify(r.audits['bootup-time']?.details?.items?.slice(0,5).map(i=>[i.url.slice(-40), Math.round(i.total), Math.round(i.scripting)])));
  console.log('render-blocking', JSON.stringify(r.audits['render-blocking-resources']?.details?.items?.map(i=>[i.url.slice(-40), i.wastedMs])));
  console.log('crc', r.audits['critical-request-chains']?.displayValue);
  console.log('lcp-breakdown', JSON.stringify(r.audits['lcp-breakdown-insight']?.details ?? r.audits['largest-contentful-paint-element']?.details?.items?.[1]).slice(0,600));
} finally { await server.stop(); }
