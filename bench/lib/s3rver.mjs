// s3rver (the S3 emulator, TOOLING.md) on 127.0.0.1 with one bucket and CORS open to any origin, so
// a browser can PUT parts straight to it and read their ETag. Its objects live under `dir`.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { stopChild } from './proc.mjs';
import { freePort, repoRoot } from './server.mjs';

const OPEN_CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;

/**
 * @param {{ dir: string, bucket: string, cpus?: string, onLog?: (line: string) => void }} options `onLog` gets
 *   s3rver's log lines (e.g. `Stored part 3 of <uploadId> in bucket "b" successfully`); `cpus` pins it (taskset list).
 * @returns {Promise<{ endpoint: string, pid: number, dataDir: string, stop(): Promise<void> }>}
 */
export async function startS3rver({ dir, bucket, cpus, onLog }) {
  const require = createRequire(path.join(repoRoot, 'server', 'package.json'));
  const cli = path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const cors = path.join(dir, 'cors.xml');
  writeFileSync(cors, OPEN_CORS);
  const dataDir = path.join(dir, 's3');
  // --openssl-legacy-provider: without it paginated ListObjectsV2 answers 500 (TOOLING.md).
  const argv = [
    '--openssl-legacy-provider',
    cli,
    '-d',
    dataDir,
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    ...(onLog ? [] : ['--silent']),
    '--no-vhost-buckets',
    '--configure-bucket',
    bucket,
    cors,
  ];
  // taskset execs node, so the pid stays s3rver's.
  const [command, args] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...argv]] : [process.execPath, argv];
  const child = spawn(command, args, {
    stdio: ['ignore', onLog ? 'pipe' : 'ignore', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (onLog) createInterface({ input: child.stdout }).on('line', onLog);
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${endpoint}/${bucket}`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 150 || child.exitCode !== null) throw new Error('s3rver did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    endpoint,
    pid: child.pid,
    dataDir,
    stop: () => stopChild(child, dataDir),
  };
}
