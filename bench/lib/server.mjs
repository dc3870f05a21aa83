// Starts the real Clipnest server on 127.0.0.1 with a throwaway data directory: the same bundle `npm start`
// runs (scripts/server-bundle.mjs), in one node process whose pid is the server's.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerBundle, serverEnv, serverNodeFlags } from '../../scripts/server-bundle.mjs';
import { stopChild } from './proc.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_ADMIN = { username: 'bench-admin', password: 'bench-admin-password-1' };

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

/**
 * @param {{ env?: Record<string,string>, nodeArgs?: string[], cpus?: string, stdout?: number }} [options]
 *   stdout: a file descriptor for the server's stdout (its log lines); default: discarded.
 *   cpus: pin the server to these CPUs (taskset list, e.g. '1'), so a load generator on the others does not steal its core.
 * @returns {Promise<{ url: string, pid: number, dataDir: string, login(): Promise<string>, stop(): Promise<void> }>}
 */
export async function startServer(options = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-'));
  const bundle = await buildServerBundle();
  const nodeArgs = [...serverNodeFlags, ...(options.nodeArgs ?? []), bundle];
  // taskset execs node, so the pid stays the server's.
  const [command, args] = options.cpus
    ? ['taskset', ['-c', options.cpus, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: {
      ...serverEnv,
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_USERNAME: BENCH_ADMIN.username,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      LOG_LEVEL: 'error',
      ...options.env,
    },
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
  });
  return servedChild(child, { port, dataDir, admin: BENCH_ADMIN });
}

/**
 * Waits until `child` answers /api/health on 127.0.0.1:`port` (stopping it if it never does), then returns the
 * handle the benches use: its URL and pid, `login()` as `admin` (a Bearer token), `stop()`.
 */
export async function servedChild(child, { port, dataDir, admin }) {
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stopChild(child, dataDir);
    throw error;
  }
  return {
    url,
    pid: child.pid,
    dataDir,
    async login() {
      const res = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(admin),
      });
      const body = await res.json();
      if (!res.ok || !body.data?.token) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
      return body.data.token;
    },
    stop: () => stopChild(child, dataDir),
  };
}
