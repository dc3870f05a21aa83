// `npm test`: every tier, in lanes that run side by side (see the lanes below): vitest's unit and integration
// tiers, the browser suite (Playwright) against the built app in CLIPNEST_E2E_SHARDS parts (6), and with
// CLIPNEST_NODE24=1 the server's tests on Node 24 LTS. Integration tests also run on PostgreSQL when
// TEST_DATABASE_URL is set (with the Node 24 lane: PostgreSQL on Node 20, SQLite on Node 24). CLIPNEST_SERIAL=1 runs
// the jobs one after the other, with untagged output.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { failedTestNames, playwrightFailureDigest, vitestFailureDigest } from './failure-digest.mjs';
import { ensureWebBuilt, root, run, runKeepingOutput } from './lib.mjs';
import { prepareNode24, runNode24Tests } from './node24.mjs';

const serial = process.env.CLIPNEST_SERIAL === '1';
const node24 = process.env.CLIPNEST_NODE24 === '1';
/** The niceness of the server's test tiers beside the browser lane (see the lanes below); alone they run as is. */
const serverNice = serial ? undefined : 10;
const steps = [];
const digests = [];
/** The tests each failed step named, by step name, for the summary's last lines. */
const failedIn = new Map();

async function step(name, fn) {
  const started = Date.now();
  const code = await fn();
  steps.push({ name, code, seconds: Math.round((Date.now() - started) / 1000) });
  return code;
}

function keepFailures(name, output, digestOf) {
  const digest = digestOf(output);
  if (digest) digests.push(`[clipnest] what failed in ${name} (repeated from above):\n${digest}`);
  failedIn.set(name, failedTestNames(output));
}

/** Runs one tier, keeping what failed for the summary (a CI log that keeps only its tail would lose it). */
async function tier(name, tag, command, args, digestOf, options = {}) {
  const { code, output } = await runKeepingOutput(command, args, { ...options, tag: serial ? undefined : tag });
  if (code !== 0) keepFailures(name, output, digestOf);
  return code;
}

async function vitestJob() {
  // Piped, vitest would drop its colours on a terminal.
  const env = process.stdout.isTTY && serial ? { ...process.env, FORCE_COLOR: '1' } : { ...process.env };
  // With the Node 24 lane (which runs the server's integration tier on SQLite), each database runs once: here
  // PostgreSQL only. SQLite on Node 20 stays covered by the browser suite, whose server runs on it.
  if (node24 && process.env.TEST_DATABASE_URL) env.CLIPNEST_TEST_DATABASES = 'postgres';
  const name = 'unit + integration (vitest)';
  const options = { env, nice: serverNice };
  await step(name, () => tier(name, '[vitest]', 'npx', ['vitest', 'run'], vitestFailureDigest, options));
}

async function node24Job() {
  const name = 'server unit + integration on Node 24 (vitest)';
  await step(name, async () => {
    const prepared = await prepareNode24();
    if (!prepared) return 1;
    const { code, output } = await runNode24Tests(prepared, '[node 24]', serverNice);
    if (code !== 0) keepFailures(name, output, vitestFailureDigest);
    return code;
  });
}

/** Checks chromium and builds the web app and the server bundle once, for every browser job. True when ready. */
let browserReady;
function prepareBrowser() {
  browserReady ??= (async () => {
    if (!existsSync(path.join(root, 'e2e', 'playwright.config.ts'))) return false;
    if (process.env.CLIPNEST_SKIP_E2E === '1') {
      console.log('[clipnest] CLIPNEST_SKIP_E2E=1: browser tests skipped');
      return false;
    }
    if (!existsSync('/usr/bin/chromium')) {
      console.error(
        '[clipnest] browser tests need Debian chromium: apt-get install -y chromium (or CLIPNEST_SKIP_E2E=1)',
      );
      steps.push({ name: 'browser (playwright)', code: 1, seconds: 0 });
      return false;
    }
    if ((await step('web build', ensureWebBuilt)) !== 0) return false;
    // The bundle the e2e servers start from, built here once: shards that run side by side must not rebuild it.
    if ((await step('server bundle', () => run('node', [path.join(root, 'scripts', 'server-bundle.mjs')]))) !== 0)
      return false;
    return true;
  })();
  return browserReady;
}

/**
 * The browser suite in SHARDS parts, each a job of its own with its own port and output folder, so the two lanes
 * share it (one suite of 50 minutes on one lane left the other idle for half of CI).
 */
const SHARDS = Math.max(1, Number(process.env.CLIPNEST_E2E_SHARDS ?? 6));
const browserShardJob = (index) => async () => {
  if (!(await prepareBrowser())) return;
  const name = SHARDS === 1 ? 'browser (playwright)' : `browser (playwright) ${index}/${SHARDS}`;
  const env = {
    ...process.env,
    CLIPNEST_E2E_BUNDLED: '1',
    CLIPNEST_E2E_RUN_NAME: `shard-${index}`,
    E2E_PORT: String(8800 + 10 * index),
  };
  const args = ['test', '-w', 'e2e', '--', `--shard=${index}/${SHARDS}`];
  await step(name, () => tier(name, `[browser ${index}]`, 'npm', args, playwrightFailureDigest, { env }));
};

/** The admin pages once more with the server on PostgreSQL (they read every table the dashboard counts). */
async function browserPgJob() {
  if (!process.env.TEST_DATABASE_URL || !(await prepareBrowser())) return;
  const env = {
    ...process.env,
    CLIPNEST_E2E_BUNDLED: '1',
    CLIPNEST_E2E_RUN_NAME: 'postgres',
    CLIPNEST_E2E_DATABASE_URL: process.env.TEST_DATABASE_URL,
    E2E_PORT: '8798',
  };
  const args = ['test', '-w', 'e2e', '--', 'tests/admin-pages.spec.ts', '--workers=1'];
  const name = 'browser on PostgreSQL (admin pages)';
  await step(name, () => tier(name, '[browser pg]', 'npm', args, playwrightFailureDigest, { env }));
}

// Two lanes: one starts with the server's tiers (vitest, then in CI Node 24), the other with the browser shards and
// the PostgreSQL admin pages; a lane whose own queue is empty helps with the other's. The server tiers run niced:
// alone on this kind of machine a browser shard keeps ~0.3 of a core busy and spends the rest of its time waiting
// for the page, the app or its server in turn, and vitest's workers holding both cores at the same priority
// stretched every such wait (shard 1 of 6: 146 s alone, 499 s beside vitest in CI of 2026-11-30; 194 s beside niced
// vitest). Two browser shards at once (three lanes, or four with each server tier on its own) starved vitest's
// tests past their time limits. Shards are cut by test count, not time: six smaller ones let the lanes end
// together.
const serverJobs = [vitestJob, ...(node24 ? [node24Job] : [])];
const browserJobs = [...Array.from({ length: SHARDS }, (_, i) => browserShardJob(i + 1)), browserPgJob];
async function lane(...queues) {
  for (const queue of queues) for (let job = queue.shift(); job; job = queue.shift()) await job();
}
await Promise.all(
  serial ? [lane(serverJobs, browserJobs)] : [lane(serverJobs, browserJobs), lane(browserJobs, serverJobs)],
);

for (const digest of digests) console.log(`\n${digest}`);
console.log('\n[clipnest] test summary');
const SHOWN = 10;
for (const s of steps) {
  console.log(`  ${s.code === 0 ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`);
  const failed = failedIn.get(s.name) ?? [];
  for (const test of failed.slice(0, SHOWN)) console.log(`         ✘ ${test}`);
  if (failed.length > SHOWN) console.log(`         … and ${failed.length - SHOWN} more`);
}
process.exit(steps.some((s) => s.code !== 0) ? 1 : 0);
