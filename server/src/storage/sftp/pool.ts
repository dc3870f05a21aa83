// A small pool of SSH connections, each with one SFTP session, for the sftp driver. SFTP sessions pipeline requests,
// so a connection serves several calls at once; a new one opens only when every open one is busy, up to `max`.
// Idle connections close after `idleMs`. The host key is checked against the pinned SHA-256 fingerprint on every
// connection; with none pinned the first key seen is remembered and required from then on (the config test pins it).
import { createHash } from 'node:crypto';
import net, { type LookupFunction } from 'node:net';
// ssh2 is CommonJS: Node's ESM loader gives it as a default export only.
import type { Client, ConnectConfig, SFTPWrapper } from 'ssh2';
import { ssh2 } from '../../lib/optionalModules.js';
import { StorageError } from '../types.js';
import { mapSftpError } from './errors.js';

export interface SftpConnectOptions {
  host: string;
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  /** SHA-256 of the host key, base64 without padding ('' or absent: remember the first key seen). */
  hostKeySha256?: string;
  lookup?: LookupFunction;
  /** Connect + handshake + auth timeout, and the longest wait of one request (default 10 s). */
  timeoutMs?: number;
  /** Connections at most (default 4). */
  max?: number;
  /** Idle connections close after this (default 30 s). */
  idleMs?: number;
  /** Called when a connection authenticated with the key it pinned (none was pinned before). */
  onHostKeyPinned?: (fingerprint: string) => void;
}

interface Conn {
  client: Client;
  sftp: SFTPWrapper;
  busy: number;
  idle?: NodeJS.Timeout;
  closed: boolean;
}

/** The fingerprint form OpenSSH shows (after `SHA256:`): base64 of the key blob's SHA-256, no padding. */
export function hostKeyFingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64').replace(/=+$/, '');
}

/** A pinned fingerprint as typed by an admin: `SHA256:` prefix and padding dropped. */
export function normalizeFingerprint(value: string): string {
  return value
    .trim()
    .replace(/^SHA256:/i, '')
    .replace(/=+$/, '');
}

export class SftpPool {
  private readonly conns: Conn[] = [];
  private readonly opening = new Set<Promise<Conn>>();
  private pinned: string;
  /** The host key seen on the last handshake (the fingerprint the config test pins). */
  seenHostKey?: string;
  private closed = false;

  constructor(private readonly options: SftpConnectOptions) {
    this.pinned = normalizeFingerprint(options.hostKeySha256 ?? '');
  }

  get timeoutMs(): number {
    return this.options.timeoutMs ?? 10_000;
  }

  /** Runs `fn` on a session; a call that outlasts the timeout fails with 'unavailable' and its connection drops. */
  async use<T>(fn: (sftp: SFTPWrapper) => Promise<T>, path?: string): Promise<T> {
    const conn = await this.acquire();
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        fn(conn.sftp),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            this.drop(conn);
            reject(new StorageError('unavailable', 'the sftp server did not answer in time', { path }));
          }, this.timeoutMs);
        }),
      ]);
    } catch (err) {
      throw mapSftpError(err, path);
    } finally {
      clearTimeout(timer);
      this.release(conn);
    }
  }

  /** A session held until `release` is called (a stream in flight). */
  async lease(): Promise<{ sftp: SFTPWrapper; release: () => void }> {
    const conn = await this.acquire();
    let done = false;
    return {
      sftp: conn.sftp,
      release: () => {
        if (done) return;
        done = true;
        this.release(conn);
      },
    };
  }

  private async acquire(): Promise<Conn> {
    if (this.closed) throw new StorageError('unavailable', 'the sftp driver is closed');
    const open = this.conns.filter((c) => !c.closed);
    const free = open.sort((a, b) => a.busy - b.busy)[0];
    const max = this.options.max ?? 4;
    const total = open.length + this.opening.size;
    let conn: Conn;
    if (free && (free.busy < 2 || total >= max)) {
      conn = free;
    } else if (total >= max) {
      conn = await [...this.opening][0]!;
    } else {
      const pending = this.connect();
      this.opening.add(pending);
      try {
        conn = await pending;
      } finally {
        this.opening.delete(pending);
      }
      this.conns.push(conn);
    }
    conn.busy += 1;
    if (conn.idle) clearTimeout(conn.idle);
    conn.idle = undefined;
    return conn;
  }

  private release(conn: Conn): void {
    conn.busy = Math.max(0, conn.busy - 1);
    if (conn.busy > 0 || conn.closed) return;
    conn.idle = setTimeout(() => this.drop(conn), this.options.idleMs ?? 30_000);
    conn.idle.unref();
  }

  private drop(conn: Conn): void {
    if (conn.idle) clearTimeout(conn.idle);
    conn.closed = true;
    const i = this.conns.indexOf(conn);
    if (i >= 0) this.conns.splice(i, 1);
    conn.client.end();
    // A socket stuck on a dead server: destroy it rather than wait for the FIN.
    setTimeout(() => conn.client.destroy(), 1000).unref();
  }

  private socket(): Promise<net.Socket> {
    const { host, port, lookup } = this.options;
    return new Promise((resolve, reject) => {
      // No Nagle: a pipelined transfer's small READ/WRITE requests would otherwise wait for the server's delayed
      // ACKs, which more than halved transfer speed.
      const sock = net.connect({ host, port, noDelay: true, ...(lookup ? { lookup } : {}) });
      const timer = setTimeout(() => {
        sock.destroy();
        reject(new StorageError('unavailable', `no connection to ${host}:${port} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      sock.once('connect', () => {
        clearTimeout(timer);
        resolve(sock);
      });
      sock.once('error', (err) => {
        clearTimeout(timer);
        reject(mapSftpError(err));
      });
    });
  }

  private async connect(): Promise<Conn> {
    const sock = await this.socket();
    const client = new (ssh2().Client)();
    let hostKeyProblem: string | undefined;
    let learned: string | undefined;
    const { host, port } = this.options;
    const config: ConnectConfig = {
      sock,
      username: this.options.username,
      readyTimeout: this.timeoutMs,
      keepaliveInterval: 5000,
      keepaliveCountMax: 2,
      hostVerifier: (key: Buffer) => {
        const seen = hostKeyFingerprint(key);
        this.seenHostKey = seen;
        if (!this.pinned) {
          this.pinned = seen;
          learned = seen;
          return true;
        }
        if (seen === this.pinned) return true;
        hostKeyProblem =
          `the host key of ${host}:${port} changed: SHA256:${seen}, pinned SHA256:${this.pinned}. ` +
          'If the server was reinstalled on purpose, clear the pinned fingerprint and test the storage again';
        return false;
      },
      ...(this.options.password ? { password: this.options.password } : {}),
      ...(this.options.privateKey ? { privateKey: this.options.privateKey } : {}),
      ...(this.options.passphrase ? { passphrase: this.options.passphrase } : {}),
    };
    const conn = await new Promise<Conn>((resolve, reject) => {
      let settled = false;
      client.once('ready', () => {
        // Only a server that also let us in pins its key for good (a failed login may be the wrong server).
        if (learned) this.options.onHostKeyPinned?.(learned);
        client.sftp((err, sftp) => {
          settled = true;
          if (err) {
            client.end();
            reject(mapSftpError(err));
            return;
          }
          resolve({ client, sftp, busy: 0, closed: false });
        });
      });
      client.on('error', (err) => {
        if (settled) return;
        settled = true;
        sock.destroy();
        reject(hostKeyProblem ? new StorageError('denied', hostKeyProblem, { cause: err }) : mapSftpError(err));
      });
      client.connect(config);
    });
    const onGone = () => {
      if (!conn.closed) this.drop(conn);
    };
    client.on('close', onGone);
    client.on('end', onGone);
    conn.sftp.on('close', onGone);
    return conn;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const conn of [...this.conns]) this.drop(conn);
  }
}
