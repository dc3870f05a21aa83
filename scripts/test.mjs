// `npm test`: every tier. Two lanes run side by side (the server tiers need little of the browser's time and the
// other way round) and take the next job when they are free: vitest's unit and integration tiers, the browser
// suite (Playwright) against the built app, and with CLIPNEST_NODE24=1 the server's tests on Node 24 LTS, which
// goes to whichever lane is free first (before: always after the vitest run, while the browser lane sat idle).
// Integration tests also run on PostgreSQL when TEST_DATABASE_URL is set. CLIPNEST_SERIAL=1 runs the jobs one
// after the other, with untagged output.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { playwrightFailureDigest, vitestFailureDigest } from './failure-digest.mjs';
import { ensureWebBuilt, root, runKeepingOutput } from './lib.mjs';
import { prepareNode24, runNode24Tests } from './node24.mjs';

const serial = process.env.CLIPNEST_SERIAL === '1';
const steps = [];
const digests = [];

async function step(name, fn) {
  const started = Date.now();
  const code = await fn();
  steps.push({ name, code, seconds: Math.round((Date.now() - started) / 1000) });
  return code;
}

/** Runs one tier, keeping what failed for the summary (a CI log that keeps only its tail would lose it). */
async function tier(name, tag, command, args, digestOf, options = {}) {
  const { code, output } = await runKeepingOutput(command, args, { ...options, tag: serial ? undefined : tag });
  const digest = code === 0 ? '' : digestOf(output);
  if (digest) digests.push(`[clipnest] what failed in ${name} (repeated from above):\n${digest}`);
  return code;
}

async function vitestJob() {
  // Piped, vitest would drop its colours on a terminal.
  const env = process.stdout.isTTY && serial ? { ...process.env, FORCE_COLOR: '1' } : process.env;
  await step('unit + integration (vitest)', () =>
    tier('vitest', '[vitest]', 'npx', ['vitest', 'run'], vitestFailureDigest, { env }),
  );
}

async function node24Job() {
  await step('server unit + integration on Node 24 (vitest)', async () => {
    const prepared = await prepareNode24();
    if (!prepared) return 1;
    const { code, output } = await runNode24Tests(prepared, serial ? undefined : '[node 24]');
    if (code !== 0)
      digests.push(`[clipnest] what failed on Node 24 (repeated from above):\n${vitestFailureDigest(output)}`);
    return code;
  });
}

async function browserJob() {
  if (!existsSync(path.join(root, 'e2e', 'playwright.config.ts'))) return;
  if (process.env.CLIPNEST_SKIP_E2E === '1') {
    console.log('[clipnest] CLIPNEST_SKIP_E2E=1: browser tests skipped');
    return;
  }
  if (!existsSync('/usr/bin/chromium')) {
    console.error(
      '[clipnest] browser tests need Debian chromium: apt-get install -y chromium (or CLIPNEST_SKIP_E2E=1)',
    );
    steps.push({ name: 'browser (playwright)', code: 1, seconds: 0 });
    return;
  }
  if ((await step('web build', ensureWebBuilt)) !== 0) return;
  await step('browser (playwright)', () =>
    tier('the browser suite', '[browser]', 'npm', ['test', '-w', 'e2e'], playwrightFailureDigest),
  );
  // The admin pages once more with the server on PostgreSQL (they read every table the dashboard counts).
  if (process.env.TEST_DATABASE_URL) {
    const env = { ...process.env, CLIPNEST_E2E_DATABASE_URL: process.env.TEST_DATABASE_URL, E2E_PORT: '8798' };
    const args = ['test', '-w', 'e2e', '--', 'tests/admin-pages.spec.ts', '--workers=1'];
    await step('browser on PostgreSQL (admin pages)', () =>
      tier('the browser suite on PostgreSQL', '[browser pg]', 'npm', args, playwrightFailureDigest, { env }),
    );
  }
}

// Longest first; Node 24 last, to the lane that frees up first.
const jobs = [vitestJob, browserJob, ...(process.env.CLIPNEST_NODE24 === '1' ? [node24Job] : [])];
async function lane() {
  for (let job = jobs.shift(); job; job = jobs.shift()) await job();
}
await Promise.all(serial ? [lane()] : [lane(), lane()]);

for (const digest of digests) console.log(`\n${digest}`);
console.log('\n[clipnest] test summary');
for (const s of steps) console.log(`  ${s.code === 0 ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`);
process.exit(steps.some((s) => s.code !== 0) ? 1 : 0);
