// Apache 2 with mod_dav (Debian `apache2`) on 127.0.0.1, for the webdav storage type's tests: a minimal config in
// a temp dir, Basic auth for one user, run in the foreground as the test user and stopped by `stop()`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './s3Emulator.js';

export const APACHE_BIN = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface ApacheDav {
  /** The collection URL (ends in '/'). */
  url: string;
  port: number;
  username: string;
  password: string;
  /** The folder on disk served at `url`. */
  root: string;
  stop(): Promise<void>;
}

/** Why Apache cannot run here, or undefined. In CI a missing binary is a failure, not a skip. */
export function apacheMissing(): string | undefined {
  if (existsSync(APACHE_BIN) && existsSync(path.join(MODULES, 'mod_dav_fs.so'))) return undefined;
  const why = `${APACHE_BIN} with mod_dav is not installed (Debian package apache2)`;
  if (process.env.CI === 'true') throw new Error(`${why}: CI must install it (.ci/run)`);
  return why;
}

async function waitForPort(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`apache2 exited with ${child.exitCode}: ${log()}`);
    try {
      await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`apache2 did not answer within ${timeoutMs} ms: ${log()}`);
}

export async function startApacheDav(options: { username?: string; password?: string } = {}): Promise<ApacheDav> {
  const username = options.username ?? 'davuser';
  const password = options.password ?? 'dav pass ✓';
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-apache-'));
  const root = path.join(dir, 'root');
  mkdirSync(root);
  mkdirSync(path.join(dir, 'lock'));
  const sha1 = createHash('sha1').update(password).digest('base64');
  writeFileSync(path.join(dir, 'htpasswd'), `${username}:{SHA}${sha1}\n`);
  const conf = `
ServerRoot "${dir}"
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile "${dir}/apache.pid"
ErrorLog "${dir}/error.log"
LogLevel warn
Mutex file:${dir}
LoadModule mpm_event_module ${MODULES}/mod_mpm_event.so
LoadModule authn_core_module ${MODULES}/mod_authn_core.so
LoadModule authn_file_module ${MODULES}/mod_authn_file.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule authz_user_module ${MODULES}/mod_authz_user.so
LoadModule auth_basic_module ${MODULES}/mod_auth_basic.so
LoadModule alias_module ${MODULES}/mod_alias.so
LoadModule dav_module ${MODULES}/mod_dav.so
LoadModule dav_fs_module ${MODULES}/mod_dav_fs.so
StartServers 1
ServerLimit 1
ThreadsPerChild 25
MaxRequestWorkers 25
DavLockDB "${dir}/lock/DavLock"
DocumentRoot "${root}"
Alias /dav "${root}"
<Directory "${root}">
  Dav On
  AuthType Basic
  AuthName "clipnest-test"
  AuthUserFile "${dir}/htpasswd"
  Require valid-user
</Directory>
`;
  const confFile = path.join(dir, 'apache2.conf');
  writeFileSync(confFile, conf);
  const child = spawn(APACHE_BIN, ['-f', confFile, '-DFOREGROUND'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, APACHE_RUN_DIR: dir, APACHE_LOCK_DIR: dir, APACHE_LOG_DIR: dir },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}/dav/`;
  try {
    await waitForPort(url, child, 20_000, () => stderr);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    username,
    password,
    root,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
