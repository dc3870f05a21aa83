// Starts CloudPaste's backend for a same-run comparison, as its Docker image runs it (`node --expose-gc --import
// tsx unified-entry.js`, NODE_ENV=production, a fresh DATA_DIR), on 127.0.0.1 only. The bench neither fetches
// nor installs CloudPaste: BENCH_CLOUDPASTE_DIR names a CloudPaste backend folder whose dependencies are installed
// (see bench/README.md).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, servedChild } from './server.mjs';

const loopbackOnly = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loopbackOnly.mjs');
/** CloudPaste's first-start admin (its seed migration). */
const ADMIN = { username: 'admin', password: 'admin123' };

/** The backend folder from BENCH_CLOUDPASTE_DIR, or undefined when it is not set or not an installed backend. */
export function cloudpasteDir() {
  const dir = process.env.BENCH_CLOUDPASTE_DIR;
  if (!dir) return undefined;
  if (!existsSync(path.join(dir, 'unified-entry.js')) || !existsSync(path.join(dir, 'node_modules', 'tsx'))) {
    throw new Error(`BENCH_CLOUDPASTE_DIR=${dir} is not a CloudPaste backend folder with its dependencies installed`);
  }
  return dir;
}

/**
 * @param {{ dir: string, cpus?: string, stdout?: number }} options
 * @returns {Promise<{ url: string, pid: number, version: string, login(): Promise<string>, stop(): Promise<void> }>}
 */
export async function startCloudpaste({ dir, cpus, stdout }) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cloudpaste-bench-'));
  const nodeArgs = ['--expose-gc', '--import', loopbackOnly, '--import', 'tsx', 'unified-entry.js'];
  const [command, args] = cpus
    ? ['taskset', ['-c', cpus, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      TASK_WORKER_POOL_SIZE: '2',
      ENCRYPTION_SECRET: `bench-${process.pid}-${Date.now()}`,
    },
    stdio: ['ignore', stdout ?? 'ignore', stdout ?? 'ignore'],
  });
  const served = await servedChild(child, { port, dataDir, admin: ADMIN });
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return { ...served, version };
}
