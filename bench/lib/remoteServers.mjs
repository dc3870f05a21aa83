// The three remote storage servers of the storage bench on 127.0.0.1, each in a temp dir removed by stop():
// Apache mod_dav (Basic auth), OpenSSH sshd (a generated client key, internal-sftp) and vsftpd (anonymous writes in
// /pub). Plain-JS twins of server/test/support/{apacheDav,sshd,vsftpd}.ts, which the bench cannot import (TS).
// Needs: apt-get install -y apache2 openssh-server openssh-client vsftpd curl; vsftpd must start as root.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.mjs';

const MODULES = '/usr/lib/apache2/modules';

async function waitFor(check, child, what, log) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${log()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start: ${log()}`);
}

const connects = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('data', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function spawnLogged(bin, args) {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d) => (log = (log + d.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, log: () => log };
}

async function halt(child, extraPids = () => []) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  const extra = extraPids();
  child.kill('SIGTERM');
  for (const pid of extra) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Apache 2.4 mod_dav at `url` (ends in '/'), Basic auth, serving `root`. */
export async function startApache() {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-apache-'));
  const root = path.join(dir, 'root');
  mkdirSync(root);
  mkdirSync(path.join(dir, 'lock'));
  const username = 'davuser';
  const password = 'dav-bench-pass';
  const sha1 = createHash('sha1').update(password).digest('base64');
  writeFileSync(path.join(dir, 'htpasswd'), `${username}:{SHA}${sha1}\n`);
  const mods = [
    'mpm_event',
    'authn_core',
    'authn_file',
    'authz_core',
    'authz_user',
    'auth_basic',
    'alias',
    'dav',
    'dav_fs',
  ];
  const conf = [
    `ServerRoot "${dir}"`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${port}`,
    `PidFile "${dir}/apache.pid"`,
    `ErrorLog "${dir}/error.log"`,
    `Mutex file:${dir}`,
    ...mods.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`),
    'User www-data',
    'Group www-data',
    `DavLockDB "${dir}/lock/DavLock"`,
    `DocumentRoot "${root}"`,
    `Alias /dav "${root}"`,
    `<Directory "${root}">`,
    '  Dav On',
    '  AuthType Basic',
    '  AuthName "bench"',
    `  AuthUserFile "${dir}/htpasswd"`,
    '  Require valid-user',
    '</Directory>',
  ].join('\n');
  writeFileSync(path.join(dir, 'apache2.conf'), conf);
  execFileSync('chown', ['-R', 'www-data:www-data', dir]);
  const { child, log } = spawnLogged('/usr/sbin/apache2', ['-f', path.join(dir, 'apache2.conf'), '-DFOREGROUND']);
  const url = `http://127.0.0.1:${port}/dav/`;
  try {
    await waitFor(async () => (await fetch(url, { method: 'OPTIONS' })) && true, child, 'apache2', log);
  } catch (error) {
    await halt(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    username,
    password,
    root,
    pid: child.pid,
    /** Files seeded on disk must belong to Apache's user. */
    own: (p) => execFileSync('chown', ['-R', 'www-data:www-data', p]),
    async stop() {
      await halt(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** OpenSSH sshd with public-key login for the current user; `keyFile` is the client's private key. */
export async function startSshd() {
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-sshd-'));
  const root = path.join(dir, 'root');
  mkdirSync(root);
  for (const [file, type] of [
    ['host_ed25519', 'ed25519'],
    ['client_key', 'ed25519'],
  ])
    execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', path.join(dir, file)], { stdio: 'ignore' });
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client_key.pub')), { mode: 0o600 });
  const conf = [
    `ListenAddress 127.0.0.1:${port}`,
    `HostKey ${dir}/host_ed25519`,
    `PidFile ${dir}/sshd.pid`,
    `AuthorizedKeysFile ${dir}/authorized_keys`,
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin yes',
    'StrictModes no',
    'UsePAM no',
    'MaxSessions 20',
    'MaxStartups 50',
    'Subsystem sftp internal-sftp',
    'LogLevel ERROR',
  ].join('\n');
  writeFileSync(path.join(dir, 'sshd_config'), `${conf}\n`);
  const { child, log } = spawnLogged('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')]);
  try {
    await waitFor(() => connects(port), child, 'sshd', log);
  } catch (error) {
    await halt(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    username: os.userInfo().username,
    keyFile: path.join(dir, 'client_key'),
    privateKey: readFileSync(path.join(dir, 'client_key'), 'utf8'),
    root,
    pid: child.pid,
    async stop() {
      await halt(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** vsftpd with anonymous writes below /pub (the folder `root` on disk), passive ports in a high range. */
export async function startVsftpd() {
  const uid = Number(execFileSync('id', ['-u', 'ftp'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'ftp'], { encoding: 'utf8' }).trim());
  const port = await freePort();
  const pasvMin = 40000 + Math.floor(Math.random() * 20000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-vsftpd-'));
  const chroot = path.join(dir, 'chroot');
  const root = path.join(chroot, 'pub');
  mkdirSync(chroot, { mode: 0o755 });
  mkdirSync(root);
  mkdirSync(path.join(dir, 'empty'));
  chownSync(root, uid, gid);
  const confFile = path.join(dir, 'vsftpd.conf');
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
    `secure_chroot_dir=${dir}/empty`,
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
    'idle_session_timeout=600',
    'data_connection_timeout=120',
    `vsftpd_log_file=${dir}/vsftpd.log`,
  ];
  writeFileSync(confFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  const { child, log } = spawnLogged('/usr/sbin/vsftpd', [confFile]);
  // Each session is a process of its own (setsid): ours are the ones running this config file.
  const sessions = () =>
    readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid) && Number(pid) !== child.pid)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(confFile);
        } catch {
          return false;
        }
      })
      .map(Number);
  try {
    await waitFor(() => connects(port), child, 'vsftpd', log);
  } catch (error) {
    await halt(child, sessions);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    username: 'anonymous',
    password: 'bench@example.invalid',
    root,
    ftpRoot: '/pub',
    pid: child.pid,
    own: (p) => execFileSync('chown', ['-R', `${uid}:${gid}`, p]),
    async stop() {
      await halt(child, sessions);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
