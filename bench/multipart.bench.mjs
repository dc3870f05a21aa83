// 1 GB multipart upload to s3rver the way the browser does it (lib/multipartClient.mjs: init, one
// call signing the first parts, then per part one call that reports the part just PUT and signs the
// next, 3 PUTs in flight straight to the presigned URLs, complete), beside `/usr/bin/aws s3 cp` of
// the same file to the same emulator in the same run. Also the Clipnest server's CPU time during
// the transfer (utime+stime of the real node process from /proc), which should stay near idle: the
// bytes do not pass through it. For comparison, the older per-part flow (one sign-parts and one
// POST parts call per part), which the API still accepts.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { addS3Config, api } from './lib/api.mjs';
import { initMultipart, multipartUpload } from './lib/multipartClient.mjs';
import { cpuSeconds } from './lib/proc.mjs';
import { machineLine, writeSection } from './lib/report.mjs';
import { startS3rver } from './lib/s3rver.mjs';
import { startServer } from './lib/server.mjs';

const SIZE = Number(process.env.BENCH_MULTIPART_BYTES ?? 1024 * 1024 * 1024);
const CONCURRENCY = 3;
const MiB = 1024 * 1024;
const BUCKET = 'bench';

const work = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-mp-'));
const cleanups = [];
const cleanup = async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
};

function makeFile(file) {
  const chunk = randomBytes(MiB);
  const fd = openSync(file, 'w');
  for (let written = 0; written < SIZE; written += MiB) {
    chunk.writeUInt32LE(written / MiB, 0); // every MiB differs
    writeSync(fd, chunk, 0, Math.min(MiB, SIZE - written));
  }
  closeSync(fd);
}

/** The flow before sign-parts took `completed`: sign each part alone, PUT, report it alone. */
async function perPartUpload(server, token, configId, file) {
  let calls = 0;
  const call = (method, urlPath, body) => {
    calls += 1;
    return api(server, token, method, urlPath, body);
  };
  const init = await initMultipart(server, token, { configId, size: SIZE, filename: 'bench-per-part.bin' });
  const handle = await open(file, 'r');
  let next = 1;
  const worker = async () => {
    for (let n = next++; n <= init.part_count; n = next++) {
      const offset = (n - 1) * init.part_size;
      const length = Math.min(init.part_size, SIZE - offset);
      const buffer = Buffer.allocUnsafe(length);
      await handle.read(buffer, 0, length, offset);
      const { urls } = await call('POST', '/api/upload/multipart/sign-parts', {
        file_id: init.file_id,
        part_numbers: [n],
      });
      const put = await fetch(urls[0].url, { method: 'PUT', body: buffer });
      await put.arrayBuffer();
      const etag = put.headers.get('etag');
      if (!put.ok || !etag) throw new Error(`part ${n}: ${put.status}, no ETag obtained`);
      await call('POST', '/api/upload/multipart/parts', { file_id: init.file_id, part_number: n, etag, size: length });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await handle.close();
  const view = await call('POST', '/api/upload/multipart/complete', { file_id: init.file_id });
  if (view.size !== SIZE) throw new Error(`completed size ${view.size}`);
  return { init, calls };
}

function awsCopy(endpoint, file) {
  const started = performance.now();
  const out = spawnSync(
    '/usr/bin/aws',
    ['--endpoint-url', endpoint, 's3', 'cp', '--only-show-errors', file, `s3://${BUCKET}/aws-cp.bin`],
    {
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`aws s3 cp failed: ${out.stderr}`);
  return (performance.now() - started) / 1000;
}

/** Wall time and CPU time of the server and of s3rver while `run` uploads. */
async function measure(pids, run) {
  const before = pids.map(cpuSeconds);
  const started = performance.now();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  const [server, s3] = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
  return { ...result, seconds, serverCpu: server, s3Cpu: s3 };
}

const mbps = (seconds) => SIZE / MiB / seconds;
const pct = (run) => `${((run.serverCpu / run.seconds) * 100).toFixed(1)} %`;

try {
  const file = path.join(work, 'bench-1g.bin');
  makeFile(file);
  const s3 = await startS3rver({ dir: path.join(work, 's3rver'), bucket: BUCKET });
  cleanups.push(s3.stop);
  const server = await startServer();
  cleanups.push(server.stop);
  const token = await server.login();
  const config = await addS3Config(server, token, { name: 'bench s3rver', endpoint: s3.endpoint, bucket: BUCKET });
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 4, max_upload_size_unit: 'GB' });
  const pids = [server.pid, s3.pid];

  // aws first; the Clipnest runs follow on the same emulator (separate keys).
  const awsSeconds = awsCopy(s3.endpoint, file);
  const flow = await measure(pids, () =>
    multipartUpload(server, token, { configId: config.id, file, size: SIZE, filename: 'bench-1g.bin' }),
  );
  const perPart = await measure(pids, () => perPartUpload(server, token, config.id, file));

  const ratio = mbps(flow.seconds) / mbps(awsSeconds);
  const markdown = `## multipart — 1 GB browser-style multipart upload to the S3 emulator

${machineLine()}; s3rver 3.7 on 127.0.0.1 (its disk store is the bottleneck for both clients).

| client | API calls | time | throughput | Clipnest server CPU |
| --- | ---: | ---: | ---: | ---: |
| \`/usr/bin/aws s3 cp\` (awscli 2, 8 MiB parts, 10 threads) | — | ${awsSeconds.toFixed(1)} s | ${mbps(awsSeconds).toFixed(1)} MiB/s | — |
| Clipnest flow from Node (${CONCURRENCY} presigned PUTs in flight; one sign-parts call per part reports the part just sent and signs the next) | ${flow.calls + 1} | ${flow.seconds.toFixed(1)} s | ${mbps(flow.seconds).toFixed(1)} MiB/s | ${flow.serverCpu.toFixed(2)} s (**${pct(flow)}** of one core) |
| older per-part flow (sign-parts and POST parts for every part) | ${perPart.calls + 1} | ${perPart.seconds.toFixed(1)} s | ${mbps(perPart.seconds).toFixed(1)} MiB/s | ${perPart.serverCpu.toFixed(2)} s (${pct(perPart)}) |

- ${(SIZE / MiB).toFixed(0)} MiB in ${flow.init.part_count} parts of ${flow.init.part_size / MiB} MiB; ratio to aws s3 cp: **${ratio.toFixed(2)}×** (target ≥ 0.8×).
- Server CPU is utime+stime of the server process during each transfer: it signs part URLs (SigV4 computed
  from the upload's first SDK-signed URL, \`server/src/storage/s3/partUrlSigner.ts\`) and records parts;
  the bytes go straight to the bucket. s3rver used ${flow.s3Cpu.toFixed(1)} s for the Clipnest flow.
`;
  console.log(markdown);
  writeSection('multipart', markdown);
} finally {
  await cleanup();
}
