// nginx serving a directory on 127.0.0.1 (sendfile on, one worker), from a throwaway prefix: the static-file
// baseline of the benches. Throws when nginx is not installed or does not come up.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.mjs';

/**
 * @param {{ root: string, cpus?: string, defaultType?: string }} options `cpus` pins it (taskset list).
 * @returns {Promise<{ port: number, pid: number, stop(): Promise<void> }>}
 */
export async function startNginx({ root, cpus, defaultType = 'application/octet-stream' }) {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'clipnest-bench-nginx-'));
  chmodSync(root, 0o755); // nginx workers run as an unprivileged user
  mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type ${defaultType};
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { }
  }
}
`,
  );
  const argv = ['-e', `${prefix}/error.log`, '-p', prefix, '-c', conf];
  const child = spawn(...(cpus ? ['taskset', ['-c', cpus, 'nginx', ...argv]] : ['nginx', argv]), { stdio: 'ignore' });
  let failed = null;
  child.once('error', (err) => (failed = err));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && !failed) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return { port, pid: child.pid, stop };
    } catch {
      // not up yet
    }
    if (failed || child.exitCode !== null || i > 100) {
      await stop();
      throw new Error(`nginx did not start${failed ? `: ${failed.message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
