/** An s3rver S3 emulator for the e2e suite, one bucket on a free 127.0.0.1 port, optionally with open CORS. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** CORS letting the browser PUT parts straight to the bucket and read their ETag. */
const OPEN_CORS_XML = `<CORSConfiguration>
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

export interface S3rver {
  endpoint: string;
  bucket: string;
  stop: () => Promise<void>;
}

export interface S3rverOptions {
  bucket?: string;
  /** Open CORS on the bucket, for uploads the browser sends straight to S3. */
  cors?: boolean;
}

/** A port nobody listens on right now (other suites may run their own emulators). */
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

/** s3rver on 127.0.0.1 with one bucket (TOOLING.md: needs --openssl-legacy-provider). */
export async function startS3rver({ bucket = 'e2e-files', cors = false }: S3rverOptions = {}): Promise<S3rver> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-e2e-s3rver-'));
  const bucketArgs = ['--configure-bucket', bucket];
  if (cors) {
    const corsFile = path.join(dir, 'cors.xml');
    writeFileSync(corsFile, OPEN_CORS_XML);
    bucketArgs.push(corsFile);
  }
  const cli = path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      cli,
      '-d',
      path.join(dir, 'data'),
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--silent',
      '--no-vhost-buckets',
      ...bucketArgs,
    ],
    { stdio: 'ignore' },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      // Ours once the bucket answers (s3rver never checks signatures).
      if ((await fetch(`${endpoint}/${bucket}`)).ok) break;
      throw new Error('bucket not ready');
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('s3rver did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    endpoint,
    bucket,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
