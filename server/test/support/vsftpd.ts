// vsftpd (Debian `vsftpd`) on 127.0.0.1, for the ftp storage type's tests: a generated config in a temp dir,
// anonymous login with every write enabled in /pub of a temp chroot (no system user, no PAM), passive ports
// in a high range, optional explicit or implicit TLS with a self-signed certificate. Runs in the foreground
// (background=NO) and is stopped by `stop()`; `restart()` brings it back on the same port (recovery tests).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './s3Emulator.js';

export const VSFTPD_BIN = '/usr/sbin/vsftpd';

export type VsftpdTls = 'none' | 'explicit' | 'implicit';

export interface Vsftpd {
  host: string;
  port: number;
  /** vsftpd logs anonymous users in with any password. */
  username: string;
  password: string;
  /** The folder on disk that is the anonymous user's writable folder, `/pub` on the FTP server. */
  root: string;
  /** Its FTP path: vsftpd refuses a writable chroot for anonymous users, so they write below it. */
  ftpRoot: string;
  tls: VsftpdTls;
  /** Stops the server (the folder stays), for "server down" tests. */
  pause(): Promise<void>;
  /** Starts it again on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Why vsftpd cannot run here, or undefined. In CI a missing binary is a failure, not a skip. */
export function vsftpdMissing(): string | undefined {
  let why: string | undefined;
  if (!existsSync(VSFTPD_BIN)) why = `${VSFTPD_BIN} is not installed (Debian package vsftpd)`;
  else if (userInfo().uid !== 0) why = 'vsftpd must start as root (it chroots the anonymous user)';
  else if (!ftpUser()) why = "the system user 'ftp' (made by the vsftpd package) is missing";
  if (why && process.env.CI === 'true') throw new Error(`${why}: CI must install it (.ci/run)`);
  return why;
}

function ftpUser(): { uid: number; gid: number } | undefined {
  try {
    const [uid, gid] = execFileSync('id', ['-u', 'ftp'], { encoding: 'utf8' }).trim().split(' ');
    const group = execFileSync('id', ['-g', 'ftp'], { encoding: 'utf8' }).trim();
    return { uid: Number(uid), gid: Number(gid ?? group) };
  } catch {
    return undefined;
  }
}

async function waitForBanner(port: number, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vsftpd exited with ${child.exitCode}: ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vsftpd did not listen within ${timeoutMs} ms: ${log()}`);
}

export async function startVsftpd(options: { tls?: VsftpdTls } = {}): Promise<Vsftpd> {
  const tls = options.tls ?? 'none';
  const user = ftpUser();
  if (!user) throw new Error("the system user 'ftp' is missing");
  const port = await freePort();
  const pasvMin = 40000 + Math.floor(Math.random() * 20000);
  const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-vsftpd-'));
  const chroot = path.join(dir, 'chroot');
  const root = path.join(chroot, 'pub');
  const empty = path.join(dir, 'empty');
  mkdirSync(chroot, { mode: 0o755 });
  mkdirSync(root);
  mkdirSync(empty);
  chownSync(root, user.uid, user.gid);
  const lines = [
    'listen=YES',
    'listen_ipv6=NO',
    'listen_address=127.0.0.1',
    `listen_port=${port}`,
    'background=NO',
    'anonymous_enable=YES',
    'local_enable=NO',
    'write_enable=YES',
    'anon_upload_enable=YES',
    'anon_mkdir_write_enable=YES',
    'anon_other_write_enable=YES',
    'anon_world_readable_only=NO',
    'anon_umask=022',
    `anon_root=${chroot}`,
    'no_anon_password=YES',
    `secure_chroot_dir=${empty}`,
    'pasv_enable=YES',
    `pasv_min_port=${pasvMin}`,
    `pasv_max_port=${pasvMin + 200}`,
    'connect_from_port_20=NO',
    'utf8_filesystem=YES',
    'seccomp_sandbox=NO',
    'isolate=NO',
    'isolate_network=NO',
    'xferlog_enable=NO',
    'dirmessage_enable=NO',
    'max_clients=0',
    'max_per_ip=0',
    'idle_session_timeout=120',
    'data_connection_timeout=60',
    `vsftpd_log_file=${dir}/vsftpd.log`,
  ];
  if (tls !== 'none') {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        `${dir}/key.pem`,
        '-out',
        `${dir}/cert.pem`,
      ],
      { stdio: 'ignore' },
    );
    lines.push(
      'ssl_enable=YES',
      'allow_anon_ssl=YES',
      // Explicit TLS is required once offered, so a test can see that the driver really upgrades.
      'force_anon_logins_ssl=YES',
      'force_anon_data_ssl=YES',
      'require_ssl_reuse=NO',
      'ssl_tlsv1=YES',
      'ssl_sslv2=NO',
      'ssl_sslv3=NO',
      'ssl_ciphers=HIGH',
      `rsa_cert_file=${dir}/cert.pem`,
      `rsa_private_key_file=${dir}/key.pem`,
    );
    if (tls === 'implicit') lines.push('implicit_ssl=YES');
  }
  const confFile = path.join(dir, 'vsftpd.conf');
  writeFileSync(confFile, `${lines.join('\n')}\n`, { mode: 0o600 });

  let child: ChildProcess | undefined;
  let stderr = '';
  const start = async () => {
    const started = spawn(VSFTPD_BIN, [confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const keep = (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    };
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    try {
      await waitForBanner(port, started, 20_000, () => stderr);
    } catch (err) {
      started.kill('SIGKILL');
      throw err;
    }
  };
  const halt = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    // Each session is a process of its own (setsid): ours are the ones running this test's config file.
    const sessions = () =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid) && Number(pid) !== running.pid)
        .filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(confFile);
          } catch {
            return false;
          }
        })
        .map(Number);
    const kill = (pid: number, signal: NodeJS.Signals) => {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    };
    const exited = new Promise((r) => running.once('exit', r));
    const children = sessions();
    kill(running.pid!, 'SIGTERM');
    for (const pid of children) kill(pid, 'SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (running.exitCode === null) kill(running.pid!, 'SIGKILL');
    for (const pid of sessions()) kill(pid, 'SIGKILL');
  };
  try {
    await start();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    host: '127.0.0.1',
    port,
    username: 'anonymous',
    password: 'clipnest@example.invalid',
    root,
    ftpRoot: '/pub',
    tls,
    pause: halt,
    resume: start,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
