// S3 emulators for tests: s3rver (npm, always) and moto (python, when installed), each in its own child
// process on a free 127.0.0.1 port with a throwaway data directory, stopped by `stop()` (and on exit).
//
// s3rver runs as a child process under `node --openssl-legacy-provider` (TOOLING.md: without it a
// paginated ListObjectsV2 answers 500 on Node 17+), through its own CLI, so the test process keeps
// its normal OpenSSL settings.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3DriverOptions } from '../../src/storage/index.js';

export type EmulatorName = 's3rver' | 'moto';

export interface S3Emulator {
  name: EmulatorName;
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Options for `new S3Driver(…)` against this emulator. */
  driverOptions(prefix?: string): S3DriverOptions;
  /** Creates one more bucket. */
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** CORS rules letting any browser origin PUT parts and read the ETag (for presigned uploads in e2e). */
export const OPEN_CORS_XML = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>DELETE</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

let motoChecked: boolean | undefined;

/** true when `python3 -m moto.server` can run here (moto 5 is on the CI image; it is not on npm). */
export function motoAvailable(): boolean {
  if (process.env.CLIPNEST_NO_MOTO === '1') return false;
  if (motoChecked === undefined) {
    const r = spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore', timeout: 60_000 });
    motoChecked = r.status === 0;
  }
  return motoChecked;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`emulator exited with ${child.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`emulator at ${url} did not come up in ${timeoutMs} ms`);
}

function makeEmulator(
  name: EmulatorName,
  child: ChildProcess,
  endpoint: string,
  bucket: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  dataDir: string,
): S3Emulator {
  const region = 'us-east-1';
  const admin = new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    name,
    endpoint,
    bucket,
    region,
    ...credentials,
    driverOptions(prefix = '') {
      return { endpoint, region, bucket, ...credentials, forcePathStyle: true, prefix };
    },
    async createBucket(bucketName) {
      await admin.send(new CreateBucketCommand({ Bucket: bucketName }));
    },
    async stop() {
      admin.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      running.delete(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** s3rver 3.7 with one bucket (CORS open when `cors`); no signature checks, no ListParts/Abort. */
export async function startS3rver(options: { bucket?: string; cors?: boolean } = {}): Promise<S3Emulator> {
  const bucket = options.bucket ?? 'clipnest-test';
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-s3rver-'));
  const bucketArgs = ['--configure-bucket', bucket];
  if (options.cors) {
    const corsFile = path.join(dataDir, 'cors.xml');
    writeFileSync(corsFile, OPEN_CORS_XML);
    bucketArgs.push(corsFile);
  }
  const cli = path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      cli,
      '-d',
      path.join(dataDir, 'data'),
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--silent',
      '--no-vhost-buckets',
      ...bucketArgs,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(endpoint, child, 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    running.delete(child);
    throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
  }
  return makeEmulator('s3rver', child, endpoint, bucket, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, dataDir);
}

/** moto server (full multipart: ListParts, Abort, ListMultipartUploads) with one bucket. */
export async function startMoto(options: { bucket?: string } = {}): Promise<S3Emulator> {
  const bucket = options.bucket ?? 'clipnest-test';
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-moto-'));
  const child = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: dataDir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MOTO_ALLOW_NONEXISTENT_REGION: 'True' },
  });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${endpoint}/moto-api/`, child, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    running.delete(child);
    throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
  }
  const emulator = makeEmulator(
    'moto',
    child,
    endpoint,
    bucket,
    { accessKeyId: 'testing', secretAccessKey: 'testing' },
    dataDir,
  );
  await emulator.createBucket(bucket);
  return emulator;
}
