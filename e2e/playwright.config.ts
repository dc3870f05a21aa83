import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { serverNodeFlags } from '../scripts/server-bundle.mjs';
import { BASE_URL, E2E_ADMIN, E2E_BASE_PORT, E2E_SLOT } from './support/env';

const here = path.dirname(fileURLToPath(import.meta.url));

// Each parallel worker talks to a server of its own (port E2E_PORT + its slot, a data directory and database of its
// own), so no spec sees another's admin, settings, mounts or keys: the specs need not know what runs beside them.
// The worker count comes from --workers/-j when given (a server per worker; one for --workers=1). The default is 1:
// on CI's 2 cores the browser lane runs beside the vitest lane, and two browsers plus two servers there made tests
// time out (a whole run at 2 workers, 2026-11-28). CLIPNEST_E2E_WORKERS=2 runs two where cores are free.
function workersFromArgs(argv: string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const match = /^(?:--workers|-j)(?:=?(\d+))?$/.exec(argv[i]!);
    if (match) return Number(match[1] ?? argv[i + 1]);
  }
  return undefined;
}
process.env.CLIPNEST_E2E_SLOTS ??= String(
  workersFromArgs(process.argv) ?? Number(process.env.CLIPNEST_E2E_WORKERS ?? 1),
);
const slots = Math.max(1, Number(process.env.CLIPNEST_E2E_SLOTS));

// A fresh directory for every run, so tests never see leftovers. The config is evaluated again in each worker;
// the first evaluation (the runner) exports it for the others. Under it, one data directory per server.
process.env.CLIPNEST_E2E_RUN_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'clipnest-e2e-'));
const runDir = process.env.CLIPNEST_E2E_RUN_DIR;
const dataDirOf = (slot: number) => path.join(runDir, `server-${slot}`);
// What the specs read: the data directory of this worker's server.
process.env.CLIPNEST_E2E_DATA_DIR = dataDirOf(E2E_SLOT);

// With CLIPNEST_E2E_DATABASE_URL (scripts/test.mjs sets it from TEST_DATABASE_URL) the servers run on throwaway
// PostgreSQL databases made here and dropped by the global teardown; else on SQLite in their data directories.
const pgServer = process.env.CLIPNEST_E2E_DATABASE_URL;
if (pgServer && !process.env.CLIPNEST_E2E_PG_DATABASE) {
  process.env.CLIPNEST_E2E_PG_DATABASE = `clipnest_e2e_${Date.now().toString(36)}`;
  for (let slot = 0; slot < slots; slot++)
    execFileSync('psql', [pgServer, '-q', '-c', `CREATE DATABASE ${process.env.CLIPNEST_E2E_PG_DATABASE}_${slot}`]);
}
const databaseEnv = (slot: number): Record<string, string> =>
  pgServer
    ? {
        DATABASE_URL: Object.assign(new URL(pgServer), {
          pathname: `/${process.env.CLIPNEST_E2E_PG_DATABASE}_${slot}`,
        }).href,
      }
    : {};

// The bundle `npm start` serves (scripts/server-bundle.mjs), rebuilt once (by the runner) so it matches the sources;
// the servers then start from it side by side.
if (!process.env.CLIPNEST_E2E_BUNDLED) {
  execFileSync('node', [path.join(here, '..', 'scripts', 'server-bundle.mjs')], { cwd: here, stdio: 'inherit' });
  process.env.CLIPNEST_E2E_BUNDLED = '1';
}

const runName = process.env.CLIPNEST_E2E_RUN_NAME;

export default defineConfig({
  testDir: './tests',
  // Screenshot tours (every screen × theme × language × width) are for looking at, not for CI: CLIPNEST_SHOTS=1 runs them.
  testIgnore: process.env.CLIPNEST_SHOTS === '1' ? [] : ['**/*screenshots.spec.ts'],
  globalTeardown: './support/global-teardown.ts',
  // A run with a name (scripts/test.mjs names its shards) keeps its own results: a run empties its folder first.
  outputDir: runName ? `./test-results/${runName}` : './test-results',
  // Files spread over the workers; a file's tests run in order in one worker (some build on each other).
  fullyParallel: false,
  workers: slots,
  // No retries: a test that needs one is a flake to fix (two whole CI runs needed none but the editor spec, fixed).
  retries: 0,
  // Limits, not speed checks: on a 2-core CI machine whose fresh memory is slow (2026-11-29) whole tests took up
  // to 43 s of 45 and a paste list took over 7 s to show its rows, with both lanes busy. A passing test does not
  // wait any longer for them.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI
    ? [
        ['list'],
        ['html', { open: 'never', outputFolder: runName ? `playwright-report/${runName}` : 'playwright-report' }],
      ]
    : [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'en-US',
    ...devices['Desktop Chrome'],
    // Service workers would serve cached app shells between tests; the suite tests the live app.
    serviceWorkers: 'block',
    // A trace records every action with screenshots: a quarter of a browser test's time on CI's machine (two specs,
    // 131 s with it, 100 s without). CI keeps only its log, so it records none there; CLIPNEST_E2E_TRACE=1 does.
    trace: process.env.CI && process.env.CLIPNEST_E2E_TRACE !== '1' ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: Array.from({ length: slots }, (_, slot) => ({
    command: `node ${serverNodeFlags.join(' ')} ../server/dist/main.mjs`,
    cwd: here,
    url: `http://127.0.0.1:${E2E_BASE_PORT + slot}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      HOST: '127.0.0.1',
      PORT: String(E2E_BASE_PORT + slot),
      DATA_DIR: dataDirOf(slot),
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      WEB_DIST_DIR: path.join(here, '..', 'web', 'dist'),
      LOG_LEVEL: 'error',
      // URL uploads in e2e fetch from a test file server on 127.0.0.1.
      ALLOW_PRIVATE_URLS: 'true',
      // A day: tests look at used-up pastes in the admin list, which the sweep (every 10 min by default) deletes.
      PASTE_SWEEP_INTERVAL: '86400',
      ...databaseEnv(slot),
    },
  })),
});
