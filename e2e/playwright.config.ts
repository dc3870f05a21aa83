import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { serverNodeFlags } from '../scripts/server-bundle.mjs';
import { BASE_URL, E2E_ADMIN, E2E_PORT } from './support/env';

const here = path.dirname(fileURLToPath(import.meta.url));

// A fresh data directory for every run, so tests never see leftovers. The config is evaluated
// again in each worker; the first evaluation (the runner) exports it for the others.
process.env.CLIPNEST_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'clipnest-e2e-'));
const dataDir = process.env.CLIPNEST_E2E_DATA_DIR;

// With CLIPNEST_E2E_DATABASE_URL (scripts/test.mjs sets it from TEST_DATABASE_URL) the server runs on a throwaway
// PostgreSQL database made here and dropped by the global teardown; else on SQLite in the data directory.
const pgServer = process.env.CLIPNEST_E2E_DATABASE_URL;
if (pgServer && !process.env.CLIPNEST_E2E_PG_DATABASE) {
  process.env.CLIPNEST_E2E_PG_DATABASE = `clipnest_e2e_${Date.now().toString(36)}`;
  execFileSync('psql', [pgServer, '-q', '-c', `CREATE DATABASE ${process.env.CLIPNEST_E2E_PG_DATABASE}`]);
}
const databaseEnv: Record<string, string> = pgServer
  ? { DATABASE_URL: Object.assign(new URL(pgServer), { pathname: `/${process.env.CLIPNEST_E2E_PG_DATABASE}` }).href }
  : {};

export default defineConfig({
  testDir: './tests',
  // Screenshot tours (every screen × theme × language × width) are for looking at, not for CI: CLIPNEST_SHOTS=1 runs them.
  testIgnore: process.env.CLIPNEST_SHOTS === '1' ? [] : ['**/*screenshots.spec.ts'],
  globalTeardown: './support/global-teardown.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  // No retries: a test that needs one is a flake to fix (two whole CI runs needed none but the editor spec, fixed).
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 7_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'en-US',
    ...devices['Desktop Chrome'],
    // Service workers would serve cached app shells between tests; the suite tests the live app.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
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
  webServer: {
    // The bundle `npm start` serves (scripts/server-bundle.mjs), rebuilt first so it matches the sources.
    command: `node ../scripts/server-bundle.mjs && node ${serverNodeFlags.join(' ')} ../server/dist/main.mjs`,
    cwd: here,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      WEB_DIST_DIR: path.join(here, '..', 'web', 'dist'),
      LOG_LEVEL: 'error',
      // URL uploads in e2e fetch from a test file server on 127.0.0.1.
      ALLOW_PRIVATE_URLS: 'true',
      ...databaseEnv,
    },
  },
});
