// A small pool of logged-in FTP clients. FTP carries one transfer per control connection, so every in-flight
// operation holds a client of its own (a listing and a download at once take two); clients are reused, and
// closed after a while unused. A client that failed (timeout, dropped socket) is closed, never reused.
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import net from 'node:net';
import { Client } from 'basic-ftp';
import { mapFtpError } from './errors.js';

export type FtpTls = 'none' | 'explicit' | 'implicit';

export interface FtpConnectOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  tls: FtpTls;
  tlsInsecure: boolean;
  /** Resolves the host (the storage endpoint guard's lookup): the address connected to. */
  lookup?: LookupFunction;
  /** Connect and reply timeout (ms). */
  timeoutMs: number;
}

/** What the server said it can do (FEAT), and where the login landed (PWD). */
export interface FtpSession {
  features: ReadonlyMap<string, string>;
  home: string;
}

function resolveHost(host: string, lookup: LookupFunction | undefined): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) return Promise.resolve(bare);
  const resolve = lookup ?? (dnsLookup as unknown as LookupFunction);
  return new Promise((ok, fail) => {
    resolve(bare, { all: false }, (err, address) => {
      if (err) fail(err);
      else ok(String(address));
    });
  });
}

export class FtpPool {
  private readonly idle: Array<{ client: Client; timer: NodeJS.Timeout }> = [];
  private readonly waiters: Array<(client: Client | null) => void> = [];
  private open = 0;
  private closed = false;
  session?: FtpSession;

  constructor(
    private readonly options: FtpConnectOptions,
    private readonly max = 4,
    private readonly idleMs = 30_000,
  ) {}

  private async connect(): Promise<Client> {
    const o = this.options;
    // Data connections go to the control connection's address, whatever PASV names (no aiming us elsewhere).
    const client = new Client(o.timeoutMs, { allowSeparateTransferHost: false });
    try {
      const address = await resolveHost(o.host, o.lookup);
      const servername = net.isIP(o.host.replace(/^\[|\]$/g, '')) ? undefined : o.host;
      await client.access({
        host: address,
        port: o.port,
        user: o.username || 'anonymous',
        password: o.password || (o.username ? '' : 'anonymous@'),
        secure: o.tls === 'none' ? false : o.tls === 'implicit' ? 'implicit' : true,
        secureOptions: { rejectUnauthorized: !o.tlsInsecure, ...(servername ? { servername } : {}) },
      });
      if (!this.session) {
        const features = await client.features();
        this.session = { features, home: await client.pwd() };
      }
      return client;
    } catch (err) {
      client.close();
      throw mapFtpError(err);
    }
  }

  /** A logged-in client of one's own; give it back with `release`. */
  async acquire(): Promise<Client> {
    if (this.closed) throw mapFtpError(new Error('ftp driver closed'));
    for (;;) {
      const next = this.idle.pop();
      if (!next) break;
      clearTimeout(next.timer);
      if (!next.client.closed) return next.client;
      this.open--;
    }
    if (this.open < this.max) {
      this.open++;
      try {
        return await this.connect();
      } catch (err) {
        this.open--;
        this.wakeOne();
        throw err;
      }
    }
    const client = await new Promise<Client | null>((resolve) => this.waiters.push(resolve));
    return client ?? this.acquire();
  }

  /** Gives a client back: reused when healthy, closed when it failed or the pool is closed. */
  release(client: Client): void {
    if (client.closed || this.closed) {
      client.close();
      this.open--;
      this.wakeOne();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(client);
      return;
    }
    const timer = setTimeout(() => {
      const i = this.idle.findIndex((e) => e.client === client);
      if (i >= 0) {
        this.idle.splice(i, 1);
        client.close();
        this.open--;
      }
    }, this.idleMs);
    timer.unref();
    this.idle.push({ client, timer });
  }

  /** A waiter takes a free slot (it connects a new client). */
  private wakeOne(): void {
    this.waiters.shift()?.(null);
  }

  /** Runs `fn` with a client of its own. */
  async use<T>(fn: (client: Client) => Promise<T>, path?: string): Promise<T> {
    const client = await this.acquire();
    try {
      return await fn(client);
    } catch (err) {
      throw mapFtpError(err, path);
    } finally {
      this.release(client);
    }
  }

  /** Clients connected now (busy and idle): for tests of the pool. */
  get size(): number {
    return this.open;
  }

  close(): void {
    this.closed = true;
    for (const { client, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      client.close();
      this.open--;
    }
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }
}
