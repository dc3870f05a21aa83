// 1 GB multipart upload to s3rver the way the browser does it (init, sign each part just before its
// PUT, 3 PUTs in flight straight to the presigned URLs, report ETags, complete), beside
// `/usr/bin/aws s3 cp` of the same file to the same emulator in the same run. Also the Clipnest
// server's CPU time during the transfer (utime+stime of the real node process from /proc), which
// should stay near idle: the bytes do not pass through it.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { machineLine, writeSection } from './lib/report.mjs';
import { freePort, repoRoot, startServer } from './lib/server.mjs';

const SIZE = Number(process.env.BENCH_MULTIPART_BYTES ?? 1024 * 1024 * 1024);
const CONCURRENCY = 3;
const MiB = 1024 * 1024;
const BUCKET = 'bench';
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;

const work = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-mp-'));
const cleanups = [];
const cleanup = async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
};

function ticks() {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(out.stdout.trim()) || 100;
}
const CLK_TCK = ticks();

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** The real node server: the descendant of tsx's pid whose command line runs main.ts. */
function serverPid(rootPid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  let found = rootPid;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift();
    for (const child of children.get(pid) ?? []) {
      queue.push(child);
      const cmd = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      if (cmd.includes('main.ts')) found = child;
    }
  }
  return found;
}

async function startS3rver() {
  const require = createRequire(path.join(repoRoot, 'server', 'package.json'));
  const cli = path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const port = await freePort();
  const cors = path.join(work, 'cors.xml');
  writeFileSync(cors, CORS);
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      cli,
      '-d',
      path.join(work, 's3'),
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '--silent',
      '--no-vhost-buckets',
      '--configure-bucket',
      BUCKET,
      cors,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    endpoint,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function makeFile(file) {
  const chunk = randomBytes(MiB);
  const fd = openSync(file, 'w');
  for (let written = 0; written < SIZE; written += MiB) {
    chunk.writeUInt32LE(written / MiB, 0); // every MiB differs
    writeSync(fd, chunk, 0, Math.min(MiB, SIZE - written));
  }
  closeSync(fd);
}

async function api(server, token, method, urlPath, body, retried = false) {
  let res;
  try {
    res = await fetch(server.url + urlPath, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // A keep-alive socket the server closed while idle (e.g. during the aws run): retry once.
    if (retried) throw error;
    return api(server, token, method, urlPath, body, true);
  }
  return answer(res, method, urlPath);
}

async function answer(res, method, urlPath) {
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${json.message}`);
  return json.data;
}

/** The browser's flow, from Node. */
async function clipnestUpload(server, token, configId, file) {
  const init = await api(server, token, 'POST', '/api/upload/multipart/init', {
    s3_config_id: configId,
    filename: 'bench-1g.bin',
    size: SIZE,
    mimetype: 'application/octet-stream',
  });
  const handle = await open(file, 'r');
  let next = 1;
  const worker = async () => {
    for (;;) {
      const n = next++;
      if (n > init.part_count) return;
      const offset = (n - 1) * init.part_size;
      const length = Math.min(init.part_size, SIZE - offset);
      const buffer = Buffer.allocUnsafe(length);
      await handle.read(buffer, 0, length, offset);
      for (let attempt = 1; ; attempt++) {
        try {
          const { urls } = await api(server, token, 'POST', '/api/upload/multipart/sign-parts', {
            file_id: init.file_id,
            part_numbers: [n],
          });
          const put = await fetch(urls[0].url, { method: 'PUT', body: buffer });
          await put.arrayBuffer();
          const etag = put.headers.get('etag');
          if (!put.ok || !etag) throw new Error(`part ${n}: ${put.status}, no ETag obtained`);
          await api(server, token, 'POST', '/api/upload/multipart/parts', {
            file_id: init.file_id,
            part_number: n,
            etag,
            size: length,
          });
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
          await new Promise((r) => setTimeout(r, 1000 * attempt));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await handle.close();
  const view = await api(server, token, 'POST', '/api/upload/multipart/complete', { file_id: init.file_id });
  if (view.size !== SIZE) throw new Error(`completed size ${view.size}`);
  return init;
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

const mbps = (seconds) => SIZE / MiB / seconds;

try {
  const file = path.join(work, 'bench-1g.bin');
  makeFile(file);
  const s3 = await startS3rver();
  cleanups.push(s3.stop);
  const server = await startServer();
  cleanups.push(server.stop);
  const token = await server.login();
  const config = await api(server, token, 'POST', '/api/s3-configs', {
    name: 'bench s3rver',
    provider: 'minio',
    endpoint: s3.endpoint,
    bucket: BUCKET,
    region: 'us-east-1',
    access_key_id: 'S3RVER',
    secret_access_key: 'S3RVER',
    path_style: true,
  });
  await api(server, token, 'PUT', '/api/admin/settings/group/1', { max_upload_size: 4, max_upload_size_unit: 'GB' });
  const pid = serverPid(server.pid);

  // aws first; the Clipnest run follows on the same emulator (separate keys).
  const awsSeconds = awsCopy(s3.endpoint, file);
  const cpuBefore = cpuSeconds(pid);
  const s3CpuBefore = cpuSeconds(s3.pid);
  const started = performance.now();
  const init = await clipnestUpload(server, token, config.id, file);
  const clipnestSeconds = (performance.now() - started) / 1000;
  const serverCpu = cpuSeconds(pid) - cpuBefore;
  const s3Cpu = cpuSeconds(s3.pid) - s3CpuBefore;

  const ratio = mbps(clipnestSeconds) / mbps(awsSeconds);
  const markdown = `## multipart — 1 GB browser-style multipart upload to the S3 emulator

${machineLine()}; s3rver 3.7 on 127.0.0.1 (its disk store is the bottleneck for both clients).

| client | time | throughput |
| --- | ---: | ---: |
| \`/usr/bin/aws s3 cp\` (awscli 2, 8 MiB parts, 10 threads) | ${awsSeconds.toFixed(1)} s | ${mbps(awsSeconds).toFixed(1)} MiB/s |
| Clipnest flow from Node (init, sign-parts per part, ${CONCURRENCY} presigned PUTs in flight, report ETag, complete) | ${clipnestSeconds.toFixed(1)} s | ${mbps(clipnestSeconds).toFixed(1)} MiB/s |

- ${(SIZE / MiB).toFixed(0)} MiB in ${init.part_count} parts of ${init.part_size / MiB} MiB; ratio to aws s3 cp: **${ratio.toFixed(2)}×** (target ≥ 0.8×).
- Clipnest server CPU time during its transfer: **${serverCpu.toFixed(2)} s** for ${clipnestSeconds.toFixed(1)} s of wall time (${((serverCpu / clipnestSeconds) * 100).toFixed(1)} % of one core; it signs URLs and records parts, the bytes go straight to the bucket). s3rver used ${s3Cpu.toFixed(1)} s.
`;
  console.log(markdown);
  writeSection('multipart', markdown);
} finally {
  await cleanup();
}
