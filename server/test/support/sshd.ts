// Debian's OpenSSH server (`openssh-server`) on 127.0.0.1, for the sftp storage type's tests: a generated host key
// and client key in a temp dir, public-key auth for the current user, `internal-sftp`, run in the foreground
// (`sshd -D -e`) and stopped by `stop()`. No system password is needed; outside the temp dir only /run/sshd (sshd's
// privilege separation folder) is made when missing.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './s3Emulator.js';

export const SSHD_BIN = '/usr/sbin/sshd';
const KEYGEN_BIN = '/usr/bin/ssh-keygen';

export interface Sshd {
  host: string;
  port: number;
  username: string;
  /** The client's private key (OpenSSH PEM), accepted by the server. */
  privateKey: string;
  /** SHA-256 of the server's host key, base64 without padding (as `ssh-keygen -l` shows it after `SHA256:`). */
  hostKeySha256: string;
  /** A folder inside the temp dir, for the driver's root. */
  root: string;
  /** Starts the server again on the same port (after `pause()`). */
  resume(): Promise<void>;
  /** Stops the server, keeping its files (a storage that went down). */
  pause(): Promise<void>;
  /** The server reinstalled: a new host key, the server started again; answers its fingerprint. */
  newHostKey(): Promise<string>;
  stop(): Promise<void>;
}

/** Why sshd cannot run here, or undefined. In CI a missing binary is a failure, not a skip. */
export function sshdMissing(): string | undefined {
  if (existsSync(SSHD_BIN) && existsSync(KEYGEN_BIN)) return undefined;
  const why = `${SSHD_BIN} is not installed (Debian package openssh-server)`;
  if (process.env.CI === 'true') throw new Error(`${why}: CI must install it (.ci/run)`);
  return why;
}

function keygen(file: string, type: 'ed25519' | 'rsa'): void {
  execFileSync(KEYGEN_BIN, ['-q', '-t', type, ...(type === 'rsa' ? ['-b', '2048'] : []), '-N', '', '-f', file], {
    stdio: 'ignore',
  });
}

/** The SHA-256 fingerprint of a public key file's key, base64 without padding. */
function fingerprint(pubFile: string): string {
  const blob = Buffer.from(readFileSync(pubFile, 'utf8').trim().split(/\s+/)[1] ?? '', 'base64');
  return createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
}

async function waitForBanner(port: number, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sshd exited with ${child.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('SSH-'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not answer within ${timeoutMs} ms: ${log()}`);
}

/** sshd refuses to start without its privilege separation folder (made by Debian's service unit, not by a test). */
const PRIVSEP_DIR = '/run/sshd';

export async function startSshd(): Promise<Sshd> {
  if (!existsSync(PRIVSEP_DIR)) mkdirSync(PRIVSEP_DIR, { recursive: true, mode: 0o755 });
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'clipnest-sshd-'));
  const root = path.join(dir, 'root');
  mkdirSync(root);
  keygen(path.join(dir, 'host_ed25519'), 'ed25519');
  keygen(path.join(dir, 'client_key'), 'ed25519');
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client_key.pub')), { mode: 0o600 });
  const conf = `
ListenAddress 127.0.0.1:${port}
HostKey ${dir}/host_ed25519
PidFile ${dir}/sshd.pid
AuthorizedKeysFile ${dir}/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin yes
StrictModes no
UsePAM no
MaxSessions 20
MaxStartups 50
Subsystem sftp internal-sftp
LogLevel ERROR
`;
  const confFile = path.join(dir, 'sshd_config');
  writeFileSync(confFile, conf);
  let child: ChildProcess | undefined;
  let stderr = '';
  const run = async () => {
    const started = spawn(SSHD_BIN, ['-D', '-e', '-f', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    started.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    try {
      await waitForBanner(port, started, 20_000, () => stderr);
    } catch (err) {
      started.kill('SIGKILL');
      throw err;
    }
  };
  const halt = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (running.exitCode === null) running.kill('SIGKILL');
  };
  try {
    await run();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    host: '127.0.0.1',
    port,
    username: userInfo().username,
    privateKey: readFileSync(path.join(dir, 'client_key'), 'utf8'),
    hostKeySha256: fingerprint(path.join(dir, 'host_ed25519.pub')),
    root,
    resume: run,
    pause: halt,
    async newHostKey() {
      await halt();
      rmSync(path.join(dir, 'host_ed25519'), { force: true });
      rmSync(path.join(dir, 'host_ed25519.pub'), { force: true });
      keygen(path.join(dir, 'host_ed25519'), 'ed25519');
      await run();
      return fingerprint(path.join(dir, 'host_ed25519.pub'));
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
