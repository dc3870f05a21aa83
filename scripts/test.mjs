// `npm test`: every tier — unit and integration (vitest), then the browser suite (Playwright) against the built app.
// Integration tests also run on PostgreSQL when TEST_DATABASE_URL is set.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { playwrightFailureDigest, vitestFailureDigest } from './failure-digest.mjs';
import { ensureWebBuilt, root, runKeepingOutput } from './lib.mjs';

const steps = [];
async function step(name, fn) {
  const started = Date.now();
  const code = await fn();
  steps.push({ name, code, seconds: Math.round((Date.now() - started) / 1000) });
  return code;
}

let vitestDigest = '';
const browserDigests = [];

/** Runs a Playwright tier, keeping what failed for the summary (a CI log that keeps only its tail loses it). */
async function browserTier(name, args, options = {}) {
  const { code, output } = await runKeepingOutput('npm', args, options);
  const digest = playwrightFailureDigest(output);
  if (digest) browserDigests.push(`[${name}]\n${digest}`);
  return code;
}
await step('unit + integration (vitest)', async () => {
  // Piped, vitest would drop its colours on a terminal.
  const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;
  const { code, output } = await runKeepingOutput('npx', ['vitest', 'run'], { env });
  if (code !== 0) vitestDigest = vitestFailureDigest(output);
  return code;
});

if (existsSync(path.join(root, 'e2e', 'playwright.config.ts'))) {
  if (process.env.CLIPNEST_SKIP_E2E === '1') {
    console.log('[clipnest] CLIPNEST_SKIP_E2E=1: browser tests skipped');
  } else if (!existsSync('/usr/bin/chromium')) {
    console.error(
      '[clipnest] browser tests need Debian chromium: apt-get install -y chromium (or CLIPNEST_SKIP_E2E=1)',
    );
    steps.push({ name: 'browser (playwright)', code: 1, seconds: 0 });
  } else {
    const build = await step('web build', ensureWebBuilt);
    if (build === 0) {
      await step('browser (playwright)', () => browserTier('browser', ['test', '-w', 'e2e']));
      // The admin pages once more with the server on PostgreSQL (they read every table the dashboard counts).
      if (process.env.TEST_DATABASE_URL) {
        const env = { ...process.env, CLIPNEST_E2E_DATABASE_URL: process.env.TEST_DATABASE_URL, E2E_PORT: '8798' };
        await step('browser on PostgreSQL (admin pages)', () =>
          browserTier('browser on PostgreSQL', ['test', '-w', 'e2e', '--', 'tests/admin-pages.spec.ts'], { env }),
        );
      }
    }
  }
}

if (vitestDigest) console.log(`\n[clipnest] what failed in vitest (repeated from above):\n${vitestDigest}`);
for (const digest of browserDigests)
  console.log(`\n[clipnest] what failed in the browser suite (repeated from above):\n${digest}`);

console.log('\n[clipnest] test summary');
for (const s of steps) console.log(`  ${s.code === 0 ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`);
process.exit(steps.some((s) => s.code !== 0) ? 1 : 0);
