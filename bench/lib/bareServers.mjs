// Baselines for the files bench: bare Node servers doing only the transfer (a body piped to disk, a reverse proxy
// piping bodies to s3rver), pinned to the CPU the Clipnest server gets so both are measured alike.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { serverCpus } from './cpus.mjs';
import { freePort } from './server.mjs';

async function waitForPort(port, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing answered on 127.0.0.1:${port}`);
}

/** Starts a baseline server on the CPU the Clipnest server gets (when pinning), so both are measured alike. */
function startChild(command, args) {
  const [cmd, argv] = serverCpus ? ['taskset', ['-c', serverCpus, command, ...args]] : [command, args];
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { child, stop };
}

/** Bare Node: POST streams the body to a new file in `dir`; GET /<name> streams `srcDir/<name>` back (context). */
export async function startBareUploadServer(dir, srcDir) {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const script = `
const http = require('node:http'); const fs = require('node:fs'); const path = require('node:path');
const { pipeline } = require('node:stream/promises');
let n = 0;
http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url.length > 1) {
    const file = path.join(${JSON.stringify(srcDir)}, path.basename(req.url));
    res.setHeader('content-length', fs.statSync(file).size);
    await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), res).catch(() => res.destroy());
    return;
  }
  if (req.method !== 'POST') { res.end('ok'); return; }
  try {
    await pipeline(req, fs.createWriteStream(path.join(${JSON.stringify(dir)}, 'upload-' + (n++))));
    res.end('{"ok":true}');
  } catch (e) { res.statusCode = 500; res.end(String(e)); }
}).listen(${port}, '127.0.0.1');`;
  const proc = startChild(process.execPath, ['-e', script]);
  await waitForPort(port);
  return { ...proc, port };
}

/** A bare Node reverse proxy in front of s3rver: request and response bodies piped, nothing else. */
export async function startBareProxy(endpoint) {
  const port = await freePort();
  const target = new URL(endpoint);
  const script = `
const http = require('node:http'); const { pipeline } = require('node:stream/promises');
http.createServer((req, res) => {
  const headers = { 'content-type': req.headers['content-type'] ?? 'application/octet-stream' };
  if (req.headers['content-length']) headers['content-length'] = req.headers['content-length'];
  const up = http.request({ host: '127.0.0.1', port: ${target.port}, path: req.url, method: req.method, headers }, (r) => {
    const out = { 'content-type': r.headers['content-type'] ?? 'application/octet-stream' };
    if (r.headers['content-length']) out['content-length'] = r.headers['content-length'];
    res.writeHead(r.statusCode, out);
    pipeline(r, res).catch(() => res.destroy());
  });
  up.on('error', () => { res.statusCode = 502; res.end(); });
  pipeline(req, up).catch(() => up.destroy());
}).listen(${port}, '127.0.0.1');`;
  const proc = startChild(process.execPath, ['-e', script]);
  await waitForPort(port);
  return { ...proc, port };
}
