// The real server (server/src/main.ts) in a child process of its own, for tests that kill it (SIGKILL)
// mid-request and look at what it left behind. One node process (tsx as a loader), so its pid is the server's.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ADMIN } from './harness.js';
import { freePort } from './s3Emulator.js';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ChildServer {
  url: string;
  child: ChildProcess;
  login(): Promise<string>;
  /** SIGKILL: no clean-up of any kind runs. */
  kill(): Promise<void>;
  /** SIGTERM: the server's own graceful stop (in-flight requests finish, log lines are flushed); its exit code. */
  stop(): Promise<number | null>;
}

/**
 * A PostgreSQL database of its own for a child server (the child runs main.ts, which has no schema option),
 * on the server TEST_DATABASE_URL names; `drop()` removes it.
 */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL ?? '';
  const name = `clipnest_child_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * `output`: a file descriptor that gets everything the process writes (stdout and stderr), e.g. its log lines.
 * `heapProbe`: a file the child appends its memory use after a full collection to on SIGUSR2 (support/heapProbe.ts).
 */
export async function startChildServer(
  env: Record<string, string>,
  options: { output?: number; heapProbe?: string } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const probe = options.heapProbe
    ? ['--expose-gc', '--import', path.join(serverRoot, 'test', 'support', 'heapProbe.ts')]
    : [];
  // tsx first: the probe is TypeScript too.
  const child = spawn(process.execPath, ['--import', 'tsx', ...probe, path.join(serverRoot, 'src', 'main.ts')], {
    cwd: serverRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'error',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(options.heapProbe ? { CLIPNEST_HEAP_PROBE: options.heapProbe } : {}),
      ...env,
    },
    stdio: ['ignore', options.output ?? 'ignore', options.output ?? 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) {
      await kill();
      throw new Error('the server did not start within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    return child.exitCode;
  };
  return {
    url,
    child,
    kill,
    stop,
    async login() {
      const res = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const body = (await res.json()) as { data?: { token: string } };
      if (!body.data) throw new Error(`login failed: ${res.status}`);
      return body.data.token;
    },
  };
}
